/**
 * `POST /reshaper` (1.30): new inventories for some providers and the
 * consumers' allocations that move with them, written together by the
 * engine (`engine.consumers.reshape`, atomic in every Store). The body is
 * Placement's: `inventories` keyed by provider (each as `PUT
 * .../inventories`) and `allocations` keyed by consumer (each as in `POST
 * /allocations`, with `mappings` from 1.34 and `consumer_type` from 1.38).
 */
import { EngineError } from "@berth/engine";
import type { Schema } from "../json-schema.js";
import { validateSchema } from "../json-schema.js";
import type { Microversion } from "../microversion.js";
import { badRequest, PLACEMENT_CODES } from "../placement-error.js";
import type { PlacementRoute } from "../placement-route.js";
import { normalizeUuid } from "../query.js";
import { type AllocationBody, allocationSchema, requestOf } from "./allocations.js";
import { checkReservedBefore126, type InventoryBody, PUT_ALL_SCHEMA } from "./inventories.js";

const UUID_KEY = "^[0-9a-fA-F-]{36}$";

function reshaperSchema(version: Microversion): Schema {
  return {
    type: "object",
    properties: {
      inventories: {
        type: "object",
        patternProperties: { [UUID_KEY]: PUT_ALL_SCHEMA },
        minProperties: 1,
        additionalProperties: false,
      },
      allocations: {
        type: "object",
        patternProperties: { [UUID_KEY]: allocationSchema(version, true) },
        additionalProperties: false,
      },
    },
    required: ["inventories", "allocations"],
    additionalProperties: false,
  };
}

interface ReshaperBody {
  inventories: Record<
    string,
    { resource_provider_generation: number; inventories: Record<string, InventoryBody> }
  >;
  allocations: Record<string, AllocationBody>;
}

export const reshaperRoutes: PlacementRoute[] = [
  {
    method: "POST",
    path: "/reshaper",
    since: 30,
    policy: "placement:reshaper:reshape",
    handle: async ({ engine, version, json }) => {
      const body = (await json()) as ReshaperBody;
      validateSchema(body, reshaperSchema(version));
      const inventories: Record<string, { generation: number; inventories: Record<string, InventoryBody> }> =
        {};
      for (const [uuid, entry] of Object.entries(body.inventories)) {
        const provider = normalizeUuid(uuid);
        for (const [resourceClass, input] of Object.entries(entry.inventories))
          checkReservedBefore126(provider, resourceClass, input, version);
        inventories[provider] = {
          generation: entry.resource_provider_generation,
          inventories: entry.inventories,
        };
      }
      const allocations = [];
      for (const [consumer, entry] of Object.entries(body.allocations)) {
        const uuid = normalizeUuid(consumer);
        allocations.push(requestOf(uuid, entry, version, await engine.consumers.get(uuid)));
      }
      try {
        await engine.consumers.reshape({ inventories, allocations });
      } catch (error) {
        // Placement names the code of a provider missing from `inventories`.
        if (error instanceof EngineError && error.details?.reason === "provider_missing")
          throw badRequest(error.message, PLACEMENT_CODES.providerNotFound);
        throw error;
      }
      return { status: 204 };
    },
  },
];
