/**
 * `/resource_providers`: create, list (name, uuid, member_of, resources,
 * in_tree, required filters), show, update (rename, re-parent from 1.37),
 * delete. The tree and name rules are the engine's (`engine.providers`).
 */
import type { ProviderFilter } from "@berth/engine";
import { type Schema, validateSchema } from "../json-schema.js";
import { atLeast, type Microversion } from "../microversion.js";
import { badRequest } from "../placement-error.js";
import type { PlacementRequest, PlacementRoute } from "../placement-route.js";
import { checkQueryKeys, isUuid, normalizeUuid } from "../query.js";
import { latestModified, providerBody, providerModified, providerPath } from "./provider-body.js";
import { memberOfParam, requiredParam, resourcesParam } from "./provider-query.js";

const UUID_SCHEMA: Schema = { type: "string", format: "uuid" };
const NAME_SCHEMA: Schema = { type: "string", maxLength: 200, minLength: 1 };

function providerSchema(version: Microversion, withUuid: boolean): Schema {
  const properties: Record<string, Schema> = { name: NAME_SCHEMA };
  if (withUuid) properties.uuid = UUID_SCHEMA;
  if (atLeast(version, 14)) properties.parent_provider_uuid = { anyOf: [UUID_SCHEMA, { type: "null" }] };
  return { type: "object", properties, required: ["name"], additionalProperties: false };
}

function listKeys(version: Microversion): string[] {
  const keys = ["name", "uuid"];
  if (atLeast(version, 3)) keys.push("member_of");
  if (atLeast(version, 4)) keys.push("resources");
  if (atLeast(version, 14)) keys.push("in_tree");
  if (atLeast(version, 18)) keys.push("required");
  return keys;
}

async function listFilter({ query, version, engine }: PlacementRequest): Promise<ProviderFilter> {
  checkQueryKeys(query, listKeys(version));
  const filter: ProviderFilter = {};
  const name = query.get("name");
  if (name !== null) filter.name = name;
  for (const key of ["uuid", "in_tree"] as const) {
    const value = query.get(key);
    if (value === null) continue;
    if (!isUuid(value)) throw badRequest(`Invalid query string parameters: '${value}' is not a 'uuid'`);
    if (key === "uuid") filter.uuid = normalizeUuid(value);
    else filter.inTree = normalizeUuid(value);
  }
  const memberOf = memberOfParam(query, version);
  if (memberOf !== undefined) {
    filter.memberOf = memberOf.memberOf;
    filter.notMemberOf = memberOf.notMemberOf;
  }
  const required = await requiredParam(query, version, engine);
  if (required !== undefined) {
    filter.required = required.required;
    filter.forbidden = required.forbidden;
  }
  const resources = query.get("resources");
  if (resources !== null) filter.resources = await resourcesParam(resources, engine);
  return filter;
}

export const resourceProviderRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/resource_providers",
    policy: "placement:resource_providers:list",
    handle: async (request) => {
      const providers = await request.engine.providers.list(await listFilter(request));
      return {
        body: { resource_providers: providers.map((p) => providerBody(p, request.version)) },
        lastModified: latestModified(providers.map(providerModified)),
      };
    },
  },
  {
    method: "POST",
    path: "/resource_providers",
    policy: "placement:resource_providers:create",
    handle: async ({ engine, version, json }) => {
      const body = (await json()) as { name: string; uuid?: string; parent_provider_uuid?: string | null };
      validateSchema(body, providerSchema(version, true));
      const created = await engine.providers.create({
        name: body.name,
        ...(body.uuid !== undefined ? { uuid: normalizeUuid(body.uuid) } : {}),
        ...(body.parent_provider_uuid != null
          ? { parentUuid: normalizeUuid(body.parent_provider_uuid) }
          : {}),
      });
      const location = providerPath(created.uuid);
      // From 1.20 the created provider comes back in the body.
      return atLeast(version, 20)
        ? {
            status: 200,
            location,
            body: providerBody(created, version),
            lastModified: providerModified(created),
          }
        : { status: 201, location };
    },
  },
  {
    method: "GET",
    path: "/resource_providers/:uuid",
    policy: "placement:resource_providers:show",
    handle: async ({ engine, version, params }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      return { body: providerBody(provider, version), lastModified: providerModified(provider) };
    },
  },
  {
    method: "PUT",
    path: "/resource_providers/:uuid",
    policy: "placement:resource_providers:update",
    handle: async ({ engine, version, params, json }) => {
      const body = (await json()) as { name: string; parent_provider_uuid?: string | null };
      validateSchema(body, providerSchema(version, false));
      const parent = body.parent_provider_uuid;
      const updated = await engine.providers.update(
        params.uuid ?? "",
        {
          name: body.name,
          ...(parent !== undefined ? { parentUuid: parent === null ? null : normalizeUuid(parent) } : {}),
        },
        atLeast(version, 37),
      );
      return { body: providerBody(updated, version), lastModified: providerModified(updated) };
    },
  },
  {
    method: "DELETE",
    path: "/resource_providers/:uuid",
    policy: "placement:resource_providers:delete",
    handle: async ({ engine, params }) => {
      await engine.providers.delete(params.uuid ?? "");
      return { status: 204 };
    },
  },
];
