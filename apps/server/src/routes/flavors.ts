import { recordEtag } from "@berth/engine";
import { flavorToWire } from "../wire/catalog.js";
import { listing, resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/flavors";

/** Flavors (Nova): vcpus, memory_mb, disk_gb and extra specs, validated with Nova's rules by the engine. */
export const flavorRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listFlavors",
    summary: "List flavors",
    tag: "flavors",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion }) => ({
      metadata: listing(
        await services.engine.catalog.listFlavors(),
        recursion,
        (f) => resourceUrl(BASE, f.name),
        flavorToWire,
      ),
    }),
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createFlavor",
    summary: "Create a flavor",
    tag: "flavors",
    access: "admin",
    body: "FlavorsPost",
    response: "Flavor",
    creates: true,
    errors: [409],
    handle: async ({ services, body }) => {
      const flavor = await services.engine.catalog.createFlavor(body);
      return { metadata: flavorToWire(flavor), status: 201, location: resourceUrl(BASE, flavor.name) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:name`,
    operationId: "getFlavor",
    summary: "Show a flavor",
    tag: "flavors",
    access: "any",
    response: "Flavor",
    errors: [404],
    etag: true,
    handle: async ({ services, params }) => {
      const flavor = await services.engine.catalog.getFlavor(params.name);
      return { metadata: flavorToWire(flavor), etag: recordEtag(flavor) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:name`,
    operationId: "putFlavor",
    summary: "Replace a flavor",
    tag: "flavors",
    access: "admin",
    body: "FlavorPut",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, precondition }) => {
      await services.engine.catalog.replaceFlavor(params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:name`,
    operationId: "patchFlavor",
    summary: "Change some fields of a flavor (extra_specs merge key by key)",
    tag: "flavors",
    access: "admin",
    body: "FlavorPatch",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, precondition }) => {
      await services.engine.catalog.patchFlavor(params.name, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:name`,
    operationId: "deleteFlavor",
    summary: "Delete a flavor",
    tag: "flavors",
    access: "admin",
    errors: [404, 409],
    handle: async ({ services, params }) => {
      await services.engine.catalog.deleteFlavor(params.name);
      return { metadata: {} };
    },
  }),
];
