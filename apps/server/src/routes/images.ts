import { recordEtag } from "@berth/engine";
import { aliasToWire, imageToWire } from "../wire/catalog.js";
import { listing, resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/images";
const ALIASES = "/1.0/images/aliases";

/**
 * Image aliases live on their image; the alias routes edit the image's alias
 * list. Registered before `/1.0/images/:fingerprint` so `aliases` is never
 * taken for a fingerprint.
 */
const aliasRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: ALIASES,
    operationId: "listImageAliases",
    summary: "List image aliases",
    tag: "images",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion }) => {
      const images = await services.engine.catalog.listImages();
      const entries = images.flatMap((image) => image.aliases.map((alias) => ({ alias, image })));
      return {
        metadata: listing(
          entries,
          recursion,
          (e) => resourceUrl(ALIASES, e.alias),
          (e) => aliasToWire(e.alias, e.image),
        ),
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: ALIASES,
    operationId: "createImageAlias",
    summary: "Create an alias pointing at an image",
    tag: "images",
    access: "admin",
    body: "ImageAliasesPost",
    response: "ImageAliasesEntry",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, body }) => {
      const updated = await services.engine.catalog.addImageAlias(body.target, body.name);
      return {
        metadata: aliasToWire(body.name, updated),
        status: 201,
        location: resourceUrl(ALIASES, body.name),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${ALIASES}/:alias`,
    operationId: "getImageAlias",
    summary: "Show an image alias",
    tag: "images",
    access: "any",
    response: "ImageAliasesEntry",
    errors: [404],
    handle: async ({ services, params }) => ({
      metadata: aliasToWire(params.alias, await services.engine.catalog.imageOfAlias(params.alias)),
    }),
  }),
  defineRoute({
    method: "PUT",
    path: `${ALIASES}/:alias`,
    operationId: "putImageAlias",
    summary: "Point an alias at another image",
    tag: "images",
    access: "admin",
    body: "ImageAliasPut",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      await services.engine.catalog.retargetImageAlias(params.alias, body.target);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${ALIASES}/:alias`,
    operationId: "patchImageAlias",
    summary: "Point an alias at another image (target optional)",
    tag: "images",
    access: "admin",
    body: "ImageAliasPatch",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      if (body.target === undefined) await services.engine.catalog.imageOfAlias(params.alias);
      else await services.engine.catalog.retargetImageAlias(params.alias, body.target);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${ALIASES}/:alias`,
    operationId: "renameImageAlias",
    summary: "Rename an alias",
    tag: "images",
    access: "admin",
    body: "ImageAliasPost",
    errors: [404, 409],
    handle: async ({ services, params, body }) => {
      await services.engine.catalog.renameImageAlias(params.alias, body.name);
      return { metadata: {}, status: 201, location: resourceUrl(ALIASES, body.name) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${ALIASES}/:alias`,
    operationId: "deleteImageAlias",
    summary: "Delete an alias (the image stays)",
    tag: "images",
    access: "admin",
    errors: [404],
    handle: async ({ services, params }) => {
      await services.engine.catalog.removeImageAlias(params.alias);
      return { metadata: {} };
    },
  }),
];

/** Images: fingerprints with their architecture (for the architecture filter) and aliases. */
export const imageRoutes: RouteSpec[] = [
  ...aliasRoutes,
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listImages",
    summary: "List images",
    tag: "images",
    access: "any",
    query: ["recursion"],
    handle: async ({ services, recursion }) => ({
      metadata: listing(
        await services.engine.catalog.listImages(),
        recursion,
        (i) => resourceUrl(BASE, i.fingerprint),
        imageToWire,
      ),
    }),
  }),
  defineRoute({
    method: "POST",
    path: BASE,
    operationId: "createImage",
    summary: "Register an image (fingerprint, architecture, aliases)",
    tag: "images",
    access: "admin",
    body: "ImagesPost",
    response: "Image",
    creates: true,
    errors: [409],
    handle: async ({ services, body }) => {
      const image = await services.engine.catalog.createImage({
        fingerprint: body.fingerprint,
        architecture: body.architecture,
        type: body.type ?? "container",
        description: body.description ?? "",
        properties: body.properties ?? {},
        aliases: (body.aliases ?? []).map((a) => a.name),
      });
      return { metadata: imageToWire(image), status: 201, location: resourceUrl(BASE, image.fingerprint) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:fingerprint`,
    operationId: "getImage",
    summary: "Show an image",
    tag: "images",
    access: "any",
    response: "Image",
    errors: [404],
    etag: true,
    handle: async ({ services, params }) => {
      const image = await services.engine.catalog.getImage(params.fingerprint);
      return { metadata: imageToWire(image), etag: recordEtag(image) };
    },
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:fingerprint`,
    operationId: "putImage",
    summary: "Replace an image's description and properties",
    tag: "images",
    access: "admin",
    body: "ImagePut",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, precondition }) => {
      await services.engine.catalog.replaceImage(params.fingerprint, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${BASE}/:fingerprint`,
    operationId: "patchImage",
    summary: "Change an image's description and/or properties (merged key by key)",
    tag: "images",
    access: "admin",
    body: "ImagePatch",
    errors: [404, 412],
    etag: true,
    handle: async ({ services, params, body, precondition }) => {
      await services.engine.catalog.patchImage(params.fingerprint, body, precondition);
      return { metadata: {} };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:fingerprint`,
    operationId: "deleteImage",
    summary: "Delete an image and its aliases",
    tag: "images",
    access: "admin",
    errors: [404],
    operation: {
      description: "Deleting image",
      resources: ({ params }) => ({ images: [resourceUrl(BASE, params.fingerprint)] }),
    },
    handle: async ({ services, params }) => {
      await services.engine.catalog.deleteImage(params.fingerprint);
      return { metadata: {} };
    },
  }),
];
