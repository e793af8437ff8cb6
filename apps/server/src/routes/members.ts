import type { ClusterMemberPatch } from "@berth/api-types";
import { isEngineError, type MemberUpdate } from "@berth/engine";
import { notFoundHttp } from "../http/http-error.js";
import {
  inventoriesToWire,
  inventoryToWire,
  memberFullToWire,
  memberToWire,
  placementRootFullToWire,
  placementRootToWire,
} from "../wire/members.js";
import { listing, resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec, readingTheModel } from "./route-spec.js";

const BASE = "/1.0/cluster/members";
const member = (name: string) => resourceUrl(BASE, name);

/** A member PUT or PATCH body as the engine's edit (fields left out of a PATCH stay undefined). */
function memberEditOf(body: ClusterMemberPatch): MemberUpdate {
  return {
    roles: body.roles,
    failureDomain: body.failure_domain,
    description: body.description,
    config: body.config,
    groups: body.groups,
    traits: body.traits,
  };
}

/** Cluster members: registration, edits, state (heartbeats), evacuation, resources and inventories. */
export const memberRoutes: RouteSpec[] = readingTheModel([
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listMembers",
    summary:
      "List cluster members (recursion=2: each with its inventories, their usage and capacity, and its instance count)",
    tag: "cluster",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion }) => {
      const members = listing(
        services.engine.listMembers(),
        recursion,
        (m) => member(m.record.name),
        recursion === 2
          ? (m) => memberFullToWire(m, services.engine.inventories(m.record.name))
          : memberToWire,
      );
      // Root providers created through Placement are listed too, with a status that says so.
      const roots = listing(
        await services.engine.providers.placementRoots(),
        recursion,
        (root) => member(root.provider.name),
        recursion === 2
          ? (root) => placementRootFullToWire(root.provider, root.used)
          : (root) => placementRootToWire(root.provider),
      );
      return { metadata: [...members, ...roots] };
    },
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createMember",
    summary: "Register a cluster member (it counts as online until it stops sending heartbeats)",
    tag: "cluster",
    access: "admin",
    body: "ClusterMembersPost",
    response: "ClusterMember",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, body }) => {
      const info = await services.engine.createMember({
        name: body.server_name,
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.architecture !== undefined ? { architecture: body.architecture } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.failure_domain !== undefined ? { failureDomain: body.failure_domain } : {}),
        ...(body.roles !== undefined ? { roles: body.roles } : {}),
        ...(body.groups !== undefined ? { groups: body.groups } : {}),
        ...(body.config !== undefined ? { config: body.config } : {}),
        ...(body.traits !== undefined ? { traits: body.traits } : {}),
      });
      return { metadata: memberToWire(info), status: 201, location: member(info.record.name) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getMember",
    summary: "Show a cluster member",
    tag: "cluster",
    access: "any",
    response: "ClusterMember",
    errors: [404],
    handle: async ({ services, params }) => {
      try {
        return { metadata: memberToWire(services.engine.getMember(params.name)) };
      } catch (error) {
        // Not a member: a root provider created through Placement is shown as one, with its status.
        const root = isEngineError(error, "not_found")
          ? (await services.engine.providers.placementRoots()).find((r) => r.provider.name === params.name)
          : undefined;
        if (root === undefined) throw error;
        return { metadata: placementRootToWire(root.provider) };
      }
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "putMember",
    summary:
      "Replace a member's editable fields (roles, failure domain, description, config, groups, traits)",
    tag: "cluster",
    access: "admin",
    body: "ClusterMemberPut",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      await services.engine.updateMember(params.name, memberEditOf(body));
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:name`,
    operationId: "patchMember",
    summary: "Change some of a member's editable fields",
    tag: "cluster",
    access: "admin",
    body: "ClusterMemberPatch",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      // LXD PATCH merges config maps key by key: the engine merges into the version it read.
      await services.engine.patchMember(params.name, memberEditOf(body));
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/:name`,
    operationId: "renameMember",
    summary: "Rename a member (refused while it hosts instances or reservations)",
    tag: "cluster",
    access: "admin",
    body: "ClusterMemberPost",
    response: "ClusterMember",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      const info = await services.engine.renameMember(params.name, body.server_name);
      return { metadata: memberToWire(info), status: 201, location: member(info.record.name) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deleteMember",
    summary: "Remove a member (refused while instances or reservations are located on it)",
    tag: "cluster",
    access: "admin",
    errors: [404, 409],
    handle: async ({ services, params }) => {
      await services.engine.deleteMember(params.name);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name/state`,
    operationId: "getMemberState",
    summary: "The member's last reported state (ClusterMemberState)",
    tag: "cluster",
    access: "any",
    response: "ClusterMemberState",
    errors: [404],
    handle: ({ services, params }) => ({ metadata: services.engine.getMemberState(params.name) }),
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name/state`,
    operationId: "putMemberState",
    summary: "Report the member's state; this is also its heartbeat",
    tag: "cluster",
    access: "admin",
    body: "ClusterMemberState",
    errors: [404],
    handle: async ({ services, params, body }) => {
      await services.engine.heartbeat(params.name, body as Record<string, unknown>);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/:name/state`,
    operationId: "postMemberState",
    summary: 'Evacuate a member (its instances are re-placed, reason "evacuation") or restore it',
    tag: "cluster",
    access: "admin",
    body: "ClusterMemberStatePost",
    errors: [404, 409, 507],
    operation: {
      description: ({ body }) =>
        body.action === "evacuate" ? "Evacuating cluster member" : "Restoring cluster member",
      resources: ({ params }) => ({ cluster: [member(params.name)] }),
    },
    handle: async ({ services, params, body }) => {
      const name = params.name;
      if (body.action === "evacuate") {
        const outcome = await services.engine.evacuateMember(name);
        return { metadata: outcome };
      }
      return { metadata: await services.engine.restoreMember(name) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name/resources`,
    operationId: "getMemberResources",
    summary: "The member's reported resources (LXD api.Resources)",
    tag: "cluster",
    access: "any",
    response: "Resources",
    errors: [404],
    handle: ({ services, params }) => ({ metadata: services.engine.getMemberResources(params.name) }),
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name/resources`,
    operationId: "putMemberResources",
    summary: "Report the member's resources; standard inventories are derived from them",
    tag: "cluster",
    access: "admin",
    body: "Resources",
    errors: [404],
    handle: async ({ services, params, body }) => {
      await services.engine.setMemberResources(params.name, body as unknown as Record<string, unknown>);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name/inventories`,
    operationId: "getInventories",
    summary: "The member's inventories (derived and explicit) with its generation",
    tag: "inventories",
    access: "any",
    response: "MemberInventories",
    errors: [404],
    handle: ({ services, params }) => ({
      metadata: inventoriesToWire(services.engine.inventories(params.name)),
    }),
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name/inventories`,
    operationId: "putInventories",
    summary: "Replace the member's explicit inventories (generation-checked)",
    tag: "inventories",
    access: "admin",
    body: "InventoriesPut",
    response: "MemberInventories",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      const result = await services.engine.setInventories(
        params.name,
        body.inventories,
        body.generation,
        true,
      );
      return { metadata: inventoriesToWire(result) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name/inventories/:class`,
    operationId: "getInventory",
    summary: "One inventory of the member, with current usage",
    tag: "inventories",
    access: "any",
    response: "Inventory",
    errors: [404],
    handle: ({ services, params }) => {
      const name = params.name;
      const resourceClass = params.class;
      const view = services.engine.inventories(name).inventories[resourceClass];
      if (!view) throw notFoundHttp(`No inventory of ${resourceClass} on cluster member "${name}"`);
      return { metadata: inventoryToWire(view) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name/inventories/:class`,
    operationId: "putInventory",
    summary: "Set one explicit inventory (generation-checked)",
    tag: "inventories",
    access: "admin",
    body: "InventoryPut",
    response: "MemberInventories",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      const { generation, ...inventory } = body;
      const result = await services.engine.setInventories(
        params.name,
        { [params.class]: inventory },
        generation,
      );
      return { metadata: inventoriesToWire(result) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name/inventories/:class`,
    operationId: "deleteInventory",
    summary:
      "Remove an explicit inventory (a standard class falls back to its derived value); refused while allocated",
    tag: "inventories",
    access: "admin",
    errors: [404, 409],
    handle: async ({ services, params }) => {
      const name = params.name;
      const { generation } = services.engine.inventories(name);
      const result = await services.engine.deleteInventory(name, params.class, generation);
      return { metadata: inventoriesToWire(result) };
    },
  }),
]);
