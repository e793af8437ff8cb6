/**
 * Usages: one provider's (`/resource_providers/{uuid}/usages`) and a
 * project's (`/usages?project_id=`, 1.9; grouped by consumer type from
 * 1.38). The sums are the Store's, over the same allocation rows the
 * claims check.
 */
import type { ConsumerRecord } from "@berth/engine";
import { pythonRepr } from "../json-schema.js";
import { atLeast } from "../microversion.js";
import { badRequest } from "../placement-error.js";
import type { PlacementRoute } from "../placement-route.js";
import { checkQueryKeys } from "../query.js";

function sumRows(consumers: readonly ConsumerRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const consumer of consumers)
    for (const row of consumer.allocations)
      out[row.resourceClass] = (out[row.resourceClass] ?? 0) + row.amount;
  return out;
}

export const usageRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/resource_providers/:uuid/usages",
    policy: "placement:resource_providers:usages",
    handle: async ({ engine, params }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      const used = await engine.consumers.providerUsage(provider.uuid);
      const usages: Record<string, number> = {};
      for (const resourceClass of Object.keys(provider.inventories))
        usages[resourceClass] = used[resourceClass] ?? 0;
      for (const [resourceClass, amount] of Object.entries(used)) usages[resourceClass] = amount;
      return {
        body: { usages, resource_provider_generation: provider.generation },
        lastModified: new Date(),
      };
    },
  },
  {
    method: "GET",
    path: "/usages",
    since: 9,
    policy: "placement:usages",
    handle: async ({ engine, query, version }) => {
      checkQueryKeys(
        query,
        atLeast(version, 38) ? ["project_id", "user_id", "consumer_type"] : ["project_id", "user_id"],
      );
      const project = query.get("project_id");
      if (project === null)
        throw badRequest("Invalid query string parameters: 'project_id' is a required property");
      const user = query.get("user_id");
      for (const value of [project, user]) {
        if (value === null) continue;
        const keyword = value.length < 1 ? "minLength" : value.length > 255 ? "maxLength" : undefined;
        if (keyword !== undefined)
          throw badRequest(
            `Invalid query string parameters: ${pythonRepr(value)} is too ${keyword === "minLength" ? "short" : "long"}\n\nFailed validating '${keyword}' in schema`,
          );
      }
      const consumers = await engine.consumers.ofProject({ project, ...(user !== null ? { user } : {}) });
      if (!atLeast(version, 38)) return { body: { usages: sumRows(consumers) }, lastModified: new Date() };
      const wanted = query.get("consumer_type");
      const groups = new Map<string, ConsumerRecord[]>();
      for (const consumer of consumers) {
        const type = wanted === "all" ? "all" : (consumer.consumerType ?? "unknown");
        if (wanted !== null && wanted !== "all" && type !== wanted) continue;
        groups.set(type, [...(groups.get(type) ?? []), consumer]);
      }
      const usages: Record<string, Record<string, number>> = {};
      for (const [type, members] of groups)
        usages[type] = { consumer_count: members.length, ...sumRows(members) };
      return { body: { usages }, lastModified: new Date() };
    },
  },
];
