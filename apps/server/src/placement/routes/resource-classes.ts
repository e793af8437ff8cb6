/**
 * `/resource_classes` (from 1.2): the standard classes and the custom ones
 * of the engine's catalog. The CUSTOM_ name rule is @berth/resources'
 * (the schema below is built from it); in-use refusals are the Store's.
 */
import { CUSTOM_NAME_PATTERN, MAX_NAME_LENGTH } from "@berth/resources";
import { type Schema, validateSchema } from "../json-schema.js";
import { atLeast } from "../microversion.js";
import type { PlacementReply, PlacementRoute } from "../placement-route.js";

const NAME_SCHEMA: Schema = {
  type: "string",
  pattern: CUSTOM_NAME_PATTERN.source,
  maxLength: MAX_NAME_LENGTH,
};
const BODY_SCHEMA: Schema = {
  type: "object",
  properties: { name: NAME_SCHEMA },
  required: ["name"],
  additionalProperties: false,
};

const pathOf = (name: string) => `/resource_classes/${name}`;
const classBody = (name: string) => ({ name, links: [{ rel: "self", href: pathOf(name) }] });

export const resourceClassRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/resource_classes",
    since: 2,
    policy: "placement:resource_classes:list",
    handle: async ({ engine }) => ({
      body: { resource_classes: (await engine.catalog.listResourceClasses()).map((c) => classBody(c.name)) },
      // Standard classes have no stored time, so Placement itself answers "now" for the list.
      lastModified: new Date(),
    }),
  },
  {
    method: "POST",
    path: "/resource_classes",
    since: 2,
    policy: "placement:resource_classes:create",
    handle: async ({ engine, json }) => {
      const body = (await json()) as { name: string };
      validateSchema(body, BODY_SCHEMA);
      await engine.catalog.createResourceClass(body.name);
      return { status: 201, location: pathOf(body.name) };
    },
  },
  {
    method: "GET",
    path: "/resource_classes/:name",
    since: 2,
    policy: "placement:resource_classes:show",
    handle: async ({ engine, params }) => {
      const found = await engine.catalog.getResourceClass(params.name ?? "");
      return { body: classBody(found.name), lastModified: new Date() };
    },
  },
  {
    method: "PUT",
    path: "/resource_classes/:name",
    since: 2,
    policy: "placement:resource_classes:update",
    handle: async ({ engine, params, version, json }): Promise<PlacementReply> => {
      const name = params.name ?? "";
      if (atLeast(version, 7)) {
        // From 1.7 the PUT creates the class named in the URL (no body).
        validateSchema(name, NAME_SCHEMA);
        const { created } = await engine.catalog.ensureResourceClass(name);
        return { status: created ? 201 : 204, location: pathOf(name) };
      }
      const body = (await json()) as { name: string };
      validateSchema(body, BODY_SCHEMA);
      const renamed = await engine.catalog.renameResourceClass(name, body.name);
      return { body: classBody(renamed.name) };
    },
  },
  {
    method: "DELETE",
    path: "/resource_classes/:name",
    since: 2,
    policy: "placement:resource_classes:delete",
    handle: async ({ engine, params }) => {
      await engine.catalog.deleteResourceClass(params.name ?? "");
      return { status: 204 };
    },
  },
];
