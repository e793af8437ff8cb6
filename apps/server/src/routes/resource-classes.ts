import { resourceClassToWire } from "../wire/catalog.js";
import { listing, resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/resource-classes";

/** Resource classes: the standard OpenStack Placement ones plus custom `CUSTOM_*` classes. */
export const resourceClassRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listResourceClasses",
    summary: "List standard and custom resource classes",
    tag: "resources",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion }) => ({
      metadata: listing(
        await services.engine.catalog.listResourceClasses(),
        recursion,
        (c) => resourceUrl(BASE, c.name),
        resourceClassToWire,
      ),
    }),
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createResourceClass",
    summary: "Create a custom resource class (CUSTOM_[A-Z0-9_]+)",
    tag: "resources",
    access: "admin",
    body: "ResourceClassesPost",
    response: "ResourceClass",
    creates: true,
    errors: [409],
    handle: async ({ services, body }) => {
      const created = await services.engine.catalog.createResourceClass(body.name);
      return {
        metadata: resourceClassToWire(created),
        status: 201,
        location: resourceUrl(BASE, created.name),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getResourceClass",
    summary: "Show a resource class",
    tag: "resources",
    access: "any",
    response: "ResourceClass",
    errors: [404],
    handle: async ({ services, params }) => ({
      metadata: resourceClassToWire(await services.engine.catalog.getResourceClass(params.name)),
    }),
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "ensureResourceClass",
    summary: "Create the custom class if it does not exist (idempotent, as Placement's PUT)",
    tag: "resources",
    access: "admin",
    response: "ResourceClass",
    errors: [400],
    handle: async ({ services, params }) => {
      const name = params.name;
      const existing = (await services.engine.catalog.listResourceClasses()).find((c) => c.name === name);
      if (existing) return { metadata: resourceClassToWire(existing) };
      const created = await services.engine.catalog.createResourceClass(name);
      return { metadata: resourceClassToWire(created), status: 201, location: resourceUrl(BASE, name) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deleteResourceClass",
    summary: "Delete a custom class (refused for standard classes and while any inventory uses it)",
    tag: "resources",
    access: "admin",
    errors: [404, 409],
    handle: async ({ services, params }) => {
      await services.engine.catalog.deleteResourceClass(params.name);
      return { metadata: {} };
    },
  }),
];
