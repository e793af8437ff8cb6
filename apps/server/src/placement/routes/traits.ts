/**
 * `/traits` (from 1.6): standard os-traits names and custom ones, and a
 * provider's traits (`/resource_providers/{uuid}/traits`, generation
 * checked). Which names exist and may be deleted is the engine's.
 */
import type { ProviderRecord } from "@berth/engine";
import { type Schema, validateSchema } from "../json-schema.js";
import { badRequest, notFoundError } from "../placement-error.js";
import type { PlacementRoute } from "../placement-route.js";
import { checkQueryKeys } from "../query.js";
import { providerModified } from "./provider-body.js";

const PROVIDER_TRAITS_SCHEMA: Schema = {
  type: "object",
  properties: {
    traits: { type: "array", items: { type: "string", pattern: "^[A-Z0-9_]+$" }, uniqueItems: true },
    resource_provider_generation: { type: "integer" },
  },
  required: ["traits", "resource_provider_generation"],
  additionalProperties: false,
};

function nameQuery(raw: string): { names?: string[]; prefix?: string } {
  if (raw.startsWith("in:")) return { names: raw.slice(3).split(",") };
  if (raw.startsWith("startswith:")) return { prefix: raw.slice("startswith:".length) };
  throw badRequest(
    `Badly formatted name parameter. Expected name query string parameter in form: ?name=[in|startswith]:[name1,name2|prefix]. Got: "${raw}"`,
  );
}

const providerTraitsBody = (provider: ProviderRecord) => ({
  traits: provider.traits,
  resource_provider_generation: provider.generation,
});

export const traitRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/traits",
    since: 6,
    policy: "placement:traits:list",
    handle: async ({ engine, query }) => {
      checkQueryKeys(query, ["name", "associated"]);
      const name = query.get("name");
      const associated = query.get("associated");
      if (associated !== null && associated !== "true" && associated !== "false")
        throw badRequest('The query parameter "associated" only accepts "true" or "false"');
      const traits = await engine.providers.listTraits({
        ...(name !== null ? nameQuery(name) : {}),
        ...(associated !== null ? { associated: associated === "true" } : {}),
      });
      // Standard traits have no stored time: Placement answers "now" for the list.
      return { body: { traits }, lastModified: new Date() };
    },
  },
  {
    method: "GET",
    path: "/traits/:name",
    since: 6,
    policy: "placement:traits:show",
    handle: async ({ engine, params }) => {
      const name = params.name ?? "";
      if (!(await engine.providers.traitExists(name))) throw notFoundError(`No such trait(s): ${name}`);
      return { status: 204, lastModified: new Date() };
    },
  },
  {
    method: "PUT",
    path: "/traits/:name",
    since: 6,
    policy: "placement:traits:update",
    handle: async ({ engine, params }) => {
      const name = params.name ?? "";
      const { created } = await engine.providers.ensureTrait(name);
      return { status: created ? 201 : 204, location: `/traits/${name}`, lastModified: new Date() };
    },
  },
  {
    method: "DELETE",
    path: "/traits/:name",
    since: 6,
    policy: "placement:traits:delete",
    handle: async ({ engine, params }) => {
      await engine.providers.deleteTrait(params.name ?? "");
      return { status: 204 };
    },
  },
  {
    method: "GET",
    path: "/resource_providers/:uuid/traits",
    since: 6,
    policy: "placement:resource_providers:traits:list",
    handle: async ({ engine, params }) => {
      const provider = await engine.providers.get(params.uuid ?? "");
      return { body: providerTraitsBody(provider), lastModified: providerModified(provider) };
    },
  },
  {
    method: "PUT",
    path: "/resource_providers/:uuid/traits",
    since: 6,
    policy: "placement:resource_providers:traits:update",
    handle: async ({ engine, params, json }) => {
      const body = (await json()) as { traits: string[]; resource_provider_generation: number };
      validateSchema(body, PROVIDER_TRAITS_SCHEMA);
      const updated = await engine.providers.setProviderTraits(
        params.uuid ?? "",
        body.resource_provider_generation,
        body.traits,
      );
      return { body: providerTraitsBody(updated), lastModified: providerModified(updated) };
    },
  },
  {
    method: "DELETE",
    path: "/resource_providers/:uuid/traits",
    since: 6,
    policy: "placement:resource_providers:traits:delete",
    handle: async ({ engine, params }) => {
      await engine.providers.deleteProviderTraits(params.uuid ?? "");
      return { status: 204 };
    },
  },
];
