/**
 * `/resource_providers/{uuid}/aggregates` (from 1.1). Before 1.19 the body
 * is a bare list and the provider's generation neither checked nor bumped;
 * from 1.19 both, and the answers carry the generation.
 */
import type { ProviderRecord } from "@berth/engine";
import { type Schema, validateSchema } from "../json-schema.js";
import { atLeast, type Microversion } from "../microversion.js";
import type { PlacementRoute } from "../placement-route.js";
import { normalizeUuid } from "../query.js";
import { providerModified } from "./provider-body.js";

const LIST_SCHEMA: Schema = { type: "array", items: { type: "string", format: "uuid" }, uniqueItems: true };
const BODY_SCHEMA: Schema = {
  type: "object",
  properties: { aggregates: LIST_SCHEMA, resource_provider_generation: { type: "integer" } },
  required: ["aggregates", "resource_provider_generation"],
  additionalProperties: false,
};

function aggregatesBody(provider: ProviderRecord, version: Microversion) {
  return atLeast(version, 19)
    ? { aggregates: provider.aggregates, resource_provider_generation: provider.generation }
    : { aggregates: provider.aggregates };
}

export const aggregateRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/resource_providers/:uuid/aggregates",
    since: 1,
    policy: "placement:resource_providers:aggregates:list",
    handle: async ({ engine, params, version }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      return { body: aggregatesBody(provider, version), lastModified: providerModified(provider) };
    },
  },
  {
    method: "PUT",
    path: "/resource_providers/:uuid/aggregates",
    since: 1,
    policy: "placement:resource_providers:aggregates:update",
    handle: async ({ engine, params, version, json }) => {
      const uuid = params.uuid ?? "";
      await engine.providers.get(uuid);
      const body = await json();
      let updated: ProviderRecord;
      if (atLeast(version, 19)) {
        validateSchema(body, BODY_SCHEMA);
        const { aggregates, resource_provider_generation } = body as {
          aggregates: string[];
          resource_provider_generation: number;
        };
        updated = await engine.providers.setAggregates(
          uuid,
          aggregates.map(normalizeUuid),
          resource_provider_generation,
        );
      } else {
        validateSchema(body, LIST_SCHEMA);
        updated = await engine.providers.setAggregates(uuid, (body as string[]).map(normalizeUuid));
      }
      return { body: aggregatesBody(updated, version), lastModified: providerModified(updated) };
    },
  },
];
