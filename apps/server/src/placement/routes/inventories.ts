/**
 * `/resource_providers/{uuid}/inventories[/{class}]`: Placement's inventory
 * fields, generation checks and texts. Validation and defaults are
 * @berth/resources' (`normalizeInventory`, through the engine); the schemas
 * here only give Placement's 400 wording for malformed bodies.
 */
import { type ProviderRecord, providerMessages } from "@berth/engine";
import { type Inventory, type InventoryInput, MAX_ALLOCATION_RATIO, MAX_INT } from "@berth/resources";
import { type Schema, validateSchema } from "../json-schema.js";
import { atLeast, type Microversion } from "../microversion.js";
import { badRequest, notFoundError } from "../placement-error.js";
import type { PlacementRoute } from "../placement-route.js";
import { providerModified, providerPath } from "./provider-body.js";

const CLASS_PATTERN = "^[A-Z0-9_]+$";
const int = (minimum: number): Schema => ({ type: "integer", minimum, maximum: MAX_INT });
const FIELDS: Record<string, Schema> = {
  resource_provider_generation: { type: "integer" },
  total: int(1),
  reserved: int(0),
  min_unit: int(1),
  max_unit: int(1),
  step_size: int(1),
  allocation_ratio: { type: "number", maximum: MAX_ALLOCATION_RATIO },
};
const record = (extra: Record<string, Schema>, required: string[]): Schema => ({
  type: "object",
  properties: { ...FIELDS, ...extra },
  required,
  additionalProperties: false,
});
/** One inventory inside `PUT .../inventories` (its generation is the outer one). */
const RECORD_SCHEMA = record({}, ["total"]);
const SINGLE_PUT_SCHEMA = record({}, ["total", "resource_provider_generation"]);
const POST_SCHEMA = record({ resource_class: { type: "string", pattern: CLASS_PATTERN } }, [
  "total",
  "resource_class",
]);
/** `PUT .../inventories`, also one provider's entry of `POST /reshaper`. */
export const PUT_ALL_SCHEMA: Schema = {
  type: "object",
  properties: {
    resource_provider_generation: { type: "integer" },
    inventories: {
      type: "object",
      patternProperties: { [CLASS_PATTERN]: RECORD_SCHEMA },
      additionalProperties: false,
    },
  },
  required: ["resource_provider_generation", "inventories"],
  additionalProperties: false,
};

export type InventoryBody = InventoryInput & {
  resource_provider_generation?: number;
  resource_class?: string;
};

function inventoryWire(inventory: Inventory) {
  return {
    allocation_ratio: inventory.allocationRatio,
    max_unit: inventory.maxUnit,
    min_unit: inventory.minUnit,
    reserved: inventory.reserved,
    step_size: inventory.stepSize,
    total: inventory.total,
  };
}

function inventoriesBody(provider: ProviderRecord) {
  const inventories: Record<string, ReturnType<typeof inventoryWire>> = {};
  for (const [resourceClass, inventory] of Object.entries(provider.inventories))
    inventories[resourceClass] = inventoryWire(inventory);
  return { inventories, resource_provider_generation: provider.generation };
}

function oneBody(provider: ProviderRecord, resourceClass: string) {
  const inventory = provider.inventories[resourceClass];
  if (inventory === undefined)
    throw notFoundError(providerMessages.noInventory(provider.uuid, resourceClass));
  return { ...inventoryWire(inventory), resource_provider_generation: provider.generation };
}

/** The fields of an inventory a client sent, without the envelope members. */
function inputOf(body: InventoryBody): InventoryInput {
  const { resource_provider_generation: _g, resource_class: _c, ...input } = body;
  return input;
}

/**
 * Before 1.26 Placement also refused `reserved == total` (capacity 0);
 * from 1.26 only a reserved above the total, which the engine refuses.
 */
export function checkReservedBefore126(
  uuid: string,
  resourceClass: string,
  input: InventoryInput,
  version: Microversion,
  action: "create" | "update" = "update",
) {
  if (atLeast(version, 26)) return;
  if ((input.reserved ?? 0) >= input.total) {
    throw badRequest(
      providerMessages.badInventory(
        action,
        uuid,
        `Invalid inventory for '${resourceClass}' on resource provider '${uuid}'. The reserved value is greater than or equal to total.`,
      ),
    );
  }
}

const BASE = "/resource_providers/:uuid/inventories";

export const inventoryRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: BASE,
    policy: "placement:resource_providers:inventories:list",
    handle: async ({ engine, params }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      return { body: inventoriesBody(provider), lastModified: providerModified(provider) };
    },
  },
  {
    method: "PUT",
    path: BASE,
    policy: "placement:resource_providers:inventories:update",
    handle: async ({ engine, params, json, version }) => {
      const uuid = params.uuid ?? "";
      const body = (await json()) as {
        resource_provider_generation: number;
        inventories: Record<string, InventoryBody>;
      };
      validateSchema(body, PUT_ALL_SCHEMA);
      await engine.providers.get(uuid);
      for (const [resourceClass, input] of Object.entries(body.inventories))
        checkReservedBefore126(uuid, resourceClass, input, version);
      const updated = await engine.providers.setInventories(
        uuid,
        body.resource_provider_generation,
        body.inventories,
      );
      return { body: inventoriesBody(updated), lastModified: providerModified(updated) };
    },
  },
  {
    method: "POST",
    path: BASE,
    policy: "placement:resource_providers:inventories:create",
    handle: async ({ engine, params, json, version }) => {
      const uuid = params.uuid ?? "";
      const body = (await json()) as InventoryBody;
      validateSchema(body, POST_SCHEMA);
      await engine.providers.get(uuid);
      const resourceClass = body.resource_class as string;
      const input = inputOf(body);
      checkReservedBefore126(uuid, resourceClass, input, version, "create");
      const updated = await engine.providers.addInventory(
        uuid,
        body.resource_provider_generation,
        resourceClass,
        input,
      );
      return {
        status: 201,
        location: `${providerPath(uuid)}/inventories/${resourceClass}`,
        body: oneBody(updated, resourceClass),
        lastModified: providerModified(updated),
      };
    },
  },
  {
    method: "DELETE",
    path: BASE,
    since: 5,
    maskedStatus: 405,
    policy: "placement:resource_providers:inventories:delete",
    handle: async ({ engine, params }) => {
      await engine.providers.deleteAllInventories(params.uuid ?? "");
      return { status: 204 };
    },
  },
  {
    method: "GET",
    path: `${BASE}/:resourceClass`,
    policy: "placement:resource_providers:inventories:show",
    handle: async ({ engine, params }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      return {
        body: oneBody(provider, params.resourceClass ?? ""),
        lastModified: providerModified(provider),
      };
    },
  },
  {
    method: "PUT",
    path: `${BASE}/:resourceClass`,
    policy: "placement:resource_providers:inventories:update",
    handle: async ({ engine, params, json, version }) => {
      const uuid = params.uuid ?? "";
      const resourceClass = params.resourceClass ?? "";
      const body = (await json()) as InventoryBody;
      validateSchema(body, SINGLE_PUT_SCHEMA);
      await engine.providers.get(uuid);
      const input = inputOf(body);
      checkReservedBefore126(uuid, resourceClass, input, version);
      const updated = await engine.providers.updateInventory(
        uuid,
        body.resource_provider_generation as number,
        resourceClass,
        input,
      );
      return { body: oneBody(updated, resourceClass), lastModified: providerModified(updated) };
    },
  },
  {
    method: "DELETE",
    path: `${BASE}/:resourceClass`,
    policy: "placement:resource_providers:inventories:delete",
    handle: async ({ engine, params }) => {
      await engine.providers.deleteInventory(params.uuid ?? "", params.resourceClass ?? "");
      return { status: 204 };
    },
  },
];
