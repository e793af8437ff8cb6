/**
 * `/allocations/{consumer}` and `POST /allocations` (1.13): Placement's
 * allocation bodies per microversion (list form before 1.12, dict form
 * after; project/user from 1.8; consumer generations from 1.28; consumer
 * types from 1.38), translated to `engine.consumers.allocate`.
 */
import type { AllocationRequest, ConsumerRecord, Engine } from "@berth/engine";
import { type Schema, validateSchema } from "../json-schema.js";
import { atLeast, type Microversion } from "../microversion.js";
import { badRequest } from "../placement-error.js";
import type { PlacementRoute } from "../placement-route.js";
import { isUuid, normalizeUuid } from "../query.js";

/** Placement's project and user for consumers written before 1.8 (its `incomplete_consumer` default). */
const INCOMPLETE = "00000000-0000-0000-0000-000000000000";
const UUID: Schema = { type: "string", format: "uuid" };
const AMOUNT: Schema = { type: "integer", minimum: 1, maximum: 2147483647 };
const RESOURCES: Schema = {
  type: "object",
  minProperties: 1,
  patternProperties: { "^[0-9A-Z_]+$": AMOUNT },
  additionalProperties: false,
};
const ID: Schema = { type: "string", minLength: 1, maxLength: 255 };
/**
 * 1.34: which providers served which request group, as allocation
 * candidates return it. Placement checks its form and keeps nothing of it.
 * The suffix pattern is unanchored, as in Placement's schema.
 */
const MAPPINGS: Schema = {
  type: "object",
  minProperties: 1,
  patternProperties: { "[a-zA-Z0-9_-]{1,64}": { type: "array", minItems: 1, items: UUID } },
};

/** The schemas by microversion and form, each built once (every claim's body is checked against one). */
const schemas = new Map<string, Schema>();

export function allocationSchema(version: Microversion, forPost: boolean): Schema {
  const key = `${version.major}.${version.minor}/${forPost}`;
  let schema = schemas.get(key);
  if (schema === undefined) schemas.set(key, (schema = buildAllocationSchema(version, forPost)));
  return schema;
}

function buildAllocationSchema(version: Microversion, forPost: boolean): Schema {
  const properties: Record<string, Schema> = {};
  const required = ["allocations"];
  if (atLeast(version, 12)) {
    properties.allocations = {
      type: "object",
      ...(atLeast(version, 26) || forPost ? {} : { minProperties: 1 }),
      patternProperties: {
        "^[0-9a-fA-F-]{36}$": {
          type: "object",
          properties: { resources: RESOURCES, generation: { type: "integer" } },
          required: ["resources"],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
  } else {
    properties.allocations = {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: {
          resource_provider: {
            type: "object",
            properties: { uuid: UUID },
            required: ["uuid"],
            additionalProperties: false,
          },
          resources: RESOURCES,
        },
        required: ["resource_provider", "resources"],
        additionalProperties: false,
      },
    };
  }
  if (atLeast(version, 8)) {
    properties.project_id = ID;
    properties.user_id = ID;
    required.push("project_id", "user_id");
  }
  if (atLeast(version, 28)) {
    properties.consumer_generation = { anyOf: [{ type: "integer" }, { type: "null" }] };
    required.push("consumer_generation");
  }
  if (atLeast(version, 34)) properties.mappings = MAPPINGS;
  if (atLeast(version, 38)) {
    properties.consumer_type = { type: "string", pattern: "^[A-Z0-9_]+$", minLength: 1, maxLength: 255 };
    required.push("consumer_type");
  }
  return { type: "object", properties, required, additionalProperties: false };
}

export interface AllocationBody {
  allocations:
    | Record<string, { resources: Record<string, number> }>
    | { resource_provider: { uuid: string }; resources: Record<string, number> }[];
  project_id?: string;
  user_id?: string;
  consumer_generation?: number | null;
  consumer_type?: string;
}

/** Consumer uuids are stored in Placement's dashed form; anything else is looked up as given. */
const uuidOf = (raw: string) => (isUuid(raw) ? normalizeUuid(raw) : raw);

/**
 * From 1.38 a valid body names the project, the user and the consumer type
 * (`allocationSchema` requires them), so `requestOf` needs nothing of the
 * stored consumer: a claim skips that read (one statement of about a dozen).
 * From 1.28 a `consumer_generation` of null says the consumer is new: were
 * it stored, the write refuses it on that generation whatever else it says.
 */
const needsStored = (version: Microversion, body: AllocationBody) =>
  !atLeast(version, 38) && !(atLeast(version, 28) && body.consumer_generation === null);

export function requestOf(
  consumerUuid: string,
  body: AllocationBody,
  version: Microversion,
  current: ConsumerRecord | undefined,
): AllocationRequest {
  const allocations: Record<string, Record<string, number>> = {};
  if (Array.isArray(body.allocations)) {
    for (const entry of body.allocations) {
      const provider = normalizeUuid(entry.resource_provider.uuid);
      allocations[provider] = { ...(allocations[provider] ?? {}), ...entry.resources };
    }
  } else {
    for (const [provider, entry] of Object.entries(body.allocations))
      allocations[normalizeUuid(provider)] = entry.resources;
  }
  return {
    consumerUuid,
    projectId: body.project_id ?? current?.projectId ?? INCOMPLETE,
    userId: body.user_id ?? current?.userId ?? INCOMPLETE,
    // Before 1.38 a write keeps the type the consumer had.
    consumerType: atLeast(version, 38) ? (body.consumer_type ?? null) : (current?.consumerType ?? null),
    allocations,
    ...(atLeast(version, 28) ? { expectedGeneration: body.consumer_generation ?? null } : {}),
  };
}

async function providerGenerations(engine: Engine, consumer: ConsumerRecord): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const row of consumer.allocations)
    if (!out.has(row.member)) out.set(row.member, (await engine.providers.get(row.member)).generation);
  return out;
}

async function consumerBody(engine: Engine, consumer: ConsumerRecord | undefined, version: Microversion) {
  if (consumer === undefined) return { allocations: {} };
  const generations = await providerGenerations(engine, consumer);
  const allocations: Record<string, { generation: number; resources: Record<string, number> }> = {};
  for (const row of consumer.allocations) {
    const entry = (allocations[row.member] ??= {
      generation: generations.get(row.member) ?? 0,
      resources: {},
    });
    entry.resources[row.resourceClass] = row.amount;
  }
  const body: Record<string, unknown> = { allocations };
  if (atLeast(version, 12)) {
    body.project_id = consumer.projectId;
    body.user_id = consumer.userId;
  }
  if (atLeast(version, 28)) body.consumer_generation = consumer.generation;
  if (atLeast(version, 38)) body.consumer_type = consumer.consumerType ?? "unknown";
  return body;
}

export const allocationRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/allocations/:consumer",
    policy: "placement:allocations:list",
    handle: async ({ engine, params, version }) => ({
      body: await consumerBody(engine, await engine.consumers.get(uuidOf(params.consumer ?? "")), version),
      lastModified: new Date(),
    }),
  },
  {
    method: "PUT",
    path: "/allocations/:consumer",
    policy: "placement:allocations:update",
    handle: async ({ engine, params, version, json }) => {
      const raw = params.consumer ?? "";
      if (!isUuid(raw)) throw badRequest(`Malformed consumer_uuid: ${raw}`);
      const consumer = normalizeUuid(raw);
      const body = (await json()) as AllocationBody;
      validateSchema(body, allocationSchema(version, false));
      const current = needsStored(version, body) ? await engine.consumers.get(consumer) : undefined;
      await engine.consumers.allocate([requestOf(consumer, body, version, current)]);
      return { status: 204 };
    },
  },
  {
    method: "DELETE",
    path: "/allocations/:consumer",
    policy: "placement:allocations:delete",
    handle: async ({ engine, params }) => {
      await engine.consumers.remove(uuidOf(params.consumer ?? ""));
      return { status: 204 };
    },
  },
  {
    method: "POST",
    path: "/allocations",
    since: 13,
    policy: "placement:allocations:manage",
    handle: async ({ engine, version, json }) => {
      const body = (await json()) as Record<string, AllocationBody>;
      validateSchema(body, { type: "object", minProperties: 1 });
      const requests: AllocationRequest[] = [];
      for (const [consumer, entry] of Object.entries(body)) {
        if (!isUuid(consumer)) throw badRequest(`Malformed consumer_uuid: ${consumer}`);
        validateSchema(entry, allocationSchema(version, true));
        const uuid = normalizeUuid(consumer);
        const current = needsStored(version, entry) ? await engine.consumers.get(uuid) : undefined;
        requests.push(requestOf(uuid, entry, version, current));
      }
      await engine.consumers.allocate(requests);
      return { status: 204 };
    },
  },
  {
    method: "GET",
    path: "/resource_providers/:uuid/allocations",
    policy: "placement:resource_providers:allocations:list",
    handle: async ({ engine, params }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      const allocations: Record<string, { resources: Record<string, number> }> = {};
      for (const consumer of await engine.consumers.onProvider(provider.uuid)) {
        const resources: Record<string, number> = {};
        for (const row of consumer.allocations)
          if (row.member === provider.uuid) resources[row.resourceClass] = row.amount;
        allocations[consumer.uuid] = { resources };
      }
      return {
        body: { allocations, resource_provider_generation: provider.generation },
        lastModified: new Date(),
      };
    },
  },
];
