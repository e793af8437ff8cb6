import type { Engine } from "@berth/engine";
import { groupToWire } from "../wire/catalog.js";
import { listing, resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec, readingTheModel } from "./route-spec.js";

const BASE = "/1.0/cluster/groups";

function membersOf(engine: Engine, group: string): string[] {
  return engine
    .listMembers()
    .filter((m) => m.record.groups.includes(group))
    .map((m) => m.record.name);
}

/** Cluster member groups (targets `@group`, project `restricted.cluster.groups`). */
export const groupRoutes: RouteSpec[] = readingTheModel([
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listGroups",
    summary: "List cluster groups",
    tag: "cluster",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion }) => {
      const groups = await services.engine.catalog.listGroups();
      return {
        metadata: listing(
          groups,
          recursion,
          (g) => resourceUrl(BASE, g.name),
          (g) => groupToWire(g, membersOf(services.engine, g.name)),
        ),
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createGroup",
    summary: "Create a cluster group, optionally with members",
    tag: "cluster",
    access: "admin",
    body: "ClusterGroupsPost",
    response: "ClusterGroup",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, body }) => {
      const group = await services.engine.catalog.createGroup({
        name: body.name,
        description: body.description ?? "",
      });
      if (body.members !== undefined) await services.engine.setGroupMembers(group.name, body.members);
      return {
        metadata: groupToWire(group, membersOf(services.engine, group.name)),
        status: 201,
        location: resourceUrl(BASE, group.name),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getGroup",
    summary: "Show a cluster group",
    tag: "cluster",
    access: "any",
    response: "ClusterGroup",
    errors: [404],
    handle: async ({ services, params }) => {
      const group = await services.engine.catalog.getGroup(params.name);
      return { metadata: groupToWire(group, membersOf(services.engine, group.name)) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "putGroup",
    summary: "Replace a group's description and member list",
    tag: "cluster",
    access: "admin",
    body: "ClusterGroupPut",
    errors: [404],
    handle: async ({ services, params, body }) => {
      const group = await services.engine.catalog.getGroup(params.name);
      await services.engine.catalog.updateGroup({ name: group.name, description: body.description });
      await services.engine.setGroupMembers(group.name, body.members);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:name`,
    operationId: "patchGroup",
    summary: "Change a group's description and/or member list",
    tag: "cluster",
    access: "admin",
    body: "ClusterGroupPatch",
    errors: [404],
    handle: async ({ services, params, body }) => {
      const group = await services.engine.catalog.getGroup(params.name);
      if (body.description !== undefined) {
        await services.engine.catalog.updateGroup({ name: group.name, description: body.description });
      }
      if (body.members !== undefined) await services.engine.setGroupMembers(group.name, body.members);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/:name`,
    operationId: "renameGroup",
    summary: "Rename a cluster group (refused while members belong to it)",
    tag: "cluster",
    access: "admin",
    body: "ClusterGroupPost",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      const group = await services.engine.catalog.renameGroup(params.name, body.name);
      return { metadata: {}, status: 201, location: resourceUrl(BASE, group.name) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deleteGroup",
    summary: "Delete a cluster group (refused while it has members)",
    tag: "cluster",
    access: "admin",
    errors: [404, 409],
    handle: async ({ services, params }) => {
      await services.engine.catalog.deleteGroup(params.name);
      return { metadata: {} };
    },
  }),
]);
