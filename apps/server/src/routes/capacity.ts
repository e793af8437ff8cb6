import type { ClusterCapacity } from "@berth/api-types";
import type { CapacityAnswer } from "@berth/engine";
import { defineRoute, type RouteSpec } from "./route-spec.js";

/** The engine's answer in LXD-style snake_case JSON. */
function capacityToWire(answer: CapacityAnswer, project: string): ClusterCapacity {
  return {
    instances: answer.instances,
    limited_by: answer.limitedBy,
    counted_by: answer.countedBy,
    scriptlet_ignored: answer.scriptletIgnored,
    members: answer.members.map((one) => ({
      name: one.member,
      instances: one.instances,
      limited_by: one.limitedBy,
    })),
    project: {
      name: project,
      limits: answer.project.limits.map((limit) => ({
        key: limit.key,
        max: limit.max,
        used: limit.used,
        room: Math.max(0, limit.max - limit.used),
        per_instance: limit.perInstance,
        instances: limit.instances,
      })),
    },
    largest: {
      multiple: answer.largest.multiple,
      location: answer.largest.member,
      resources: answer.largest.resources,
    },
    flavors: answer.flavors.map((one) => ({
      name: one.flavor,
      instances: one.instances,
      limited_by: one.limitedBy,
    })),
    largest_flavor: answer.largestFlavor,
  };
}

/** Capacity planning: how many more instances of a create body fit now (Ganeti hspace's question). */
export const capacityRoutes: RouteSpec[] = [
  defineRoute({
    method: "POST",
    path: "/1.0/cluster/capacity",
    operationId: "clusterCapacity",
    summary:
      "How many more instances of this create body fit now, created one after another by Berth's placement rules: per member with what stops it, the project's room under each limit, the largest multiple one member still takes, and (body flavors) how many of each flavor fit; ?target=member|@group; nothing is created. With a placement scriptlet configured the count assumes the default order (scriptlet_ignored)",
    tag: "cluster",
    access: "project",
    query: ["project", "target"],
    body: "ClusterCapacityPost",
    response: "ClusterCapacity",
    errors: [404],
    handle: async ({ services, body, project, target }) => {
      const { flavors, ...create } = body;
      const answer = await services.engine.capacity.answer(create, {
        project,
        ...(target !== undefined ? { target } : {}),
        ...(flavors !== undefined ? { flavors } : {}),
      });
      return { metadata: capacityToWire(answer, project) };
    },
  }),
];
