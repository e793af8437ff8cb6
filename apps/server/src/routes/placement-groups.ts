import { type Engine, type PlacementGroupRecord, recordEtag } from "@berth/engine";
import { instanceUrlOf, placementGroupToWire } from "../wire/catalog.js";
import { resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/placement-groups";

async function toWire(engine: Engine, group: PlacementGroupRecord) {
  const members = await engine.instances.list({ project: group.project, placementGroup: group.name });
  return placementGroupToWire(group, members.map(instanceUrlOf));
}

/**
 * Placement groups in LXD 6.6's format: `config` holds `policy` (spread/compact), `rigor`
 * (strict/permissive), `user.*` and Berth's `topology` (count per value of a member topology key).
 * Berth's earlier top-level `policy`/`rigor` are still accepted (the engine merges them and refuses
 * a disagreement). Instances join with config `placement.group`.
 */
export const placementGroupRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listPlacementGroups",
    summary: "List the project's placement groups",
    tag: "placement-groups",
    access: "project",
    query: ["recursion", "project"],
    handle: async ({ services, recursion, project }) => {
      await services.engine.catalog.getProject(project); // 404 for an unknown project, not an empty list
      const groups = await services.engine.catalog.listPlacementGroups(project);
      if (recursion === 0) return { metadata: groups.map((g) => resourceUrl(BASE, g.name, project)) };
      return { metadata: await Promise.all(groups.map((g) => toWire(services.engine, g))) };
    },
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createPlacementGroup",
    summary:
      "Create a placement group (config: policy and rigor required, user.*, topology=KEY; top-level policy/rigor still accepted)",
    tag: "placement-groups",
    access: "project",
    query: ["project"],
    body: "PlacementGroupsPost",
    response: "PlacementGroup",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, body, project }) => {
      await services.engine.catalog.getProject(project);
      const group = await services.engine.catalog.createPlacementGroup({ ...body, project });
      return {
        metadata: placementGroupToWire(group, []),
        status: 201,
        location: resourceUrl(BASE, group.name, project),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getPlacementGroup",
    summary: "Show a placement group and its instances",
    tag: "placement-groups",
    access: "project",
    query: ["project"],
    response: "PlacementGroup",
    errors: [404],
    etag: true,
    handle: async ({ services, params, project }) => {
      const group = await services.engine.catalog.getPlacementGroup(project, params.name);
      return { metadata: await toWire(services.engine, group), etag: recordEtag(group) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "putPlacementGroup",
    summary: "Replace a placement group's description and config (policy and rigor required)",
    tag: "placement-groups",
    access: "project",
    query: ["project"],
    body: "PlacementGroupPut",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, project, precondition }) => {
      await services.engine.catalog.replacePlacementGroup(project, params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:name`,
    operationId: "patchPlacementGroup",
    summary: "Change a placement group's description or some config keys (an empty value unsets a key)",
    tag: "placement-groups",
    access: "project",
    query: ["project"],
    body: "PlacementGroupPatch",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, project, precondition }) => {
      await services.engine.catalog.patchPlacementGroup(project, params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/:name`,
    operationId: "renamePlacementGroup",
    summary: "Rename a placement group (refused while instances belong to it)",
    tag: "placement-groups",
    access: "project",
    query: ["project"],
    body: "PlacementGroupPost",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, params, body, project }) => {
      const group = await services.engine.catalog.renamePlacementGroup(project, params.name, body.name);
      return { metadata: {}, status: 201, location: resourceUrl(BASE, group.name, project) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deletePlacementGroup",
    summary: "Delete a placement group (refused while instances belong to it)",
    tag: "placement-groups",
    access: "project",
    query: ["project"],
    errors: [404, 409],
    handle: async ({ services, params, project }) => {
      await services.engine.catalog.deletePlacementGroup(project, params.name);
      return { metadata: {} };
    },
  }),
];
