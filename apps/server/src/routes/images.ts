import type { Engine, ImageRecord } from "@berth/engine";
import { notFoundHttp } from "../http/http-error.js";
import { aliasToWire, imageToWire } from "../wire/catalog.js";
import { listing, resourceUrl } from "../wire/urls.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/images";
const ALIASES = "/1.0/images/aliases";

async function imageOfAlias(engine: Engine, alias: string): Promise<ImageRecord> {
  const image = (await engine.catalog.listImages()).find((i) => i.aliases.includes(alias));
  if (!image) throw notFoundHttp(`Image alias "${alias}" not found`);
  return image;
}

/**
 * Moves `alias` from the image that has it to the image `target` (404 when
 * `target` is unknown); PUT and PATCH of an alias both end here.
 */
async function moveAlias(engine: Engine, alias: string, from: ImageRecord, target: string): Promise<void> {
  const to = await engine.catalog.getImage(target);
  await engine.catalog.updateImage({ ...from, aliases: from.aliases.filter((a) => a !== alias) });
  await engine.catalog.updateImage({ ...to, aliases: [...to.aliases, alias] });
}

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
      const image = await services.engine.catalog.getImage(body.target);
      const updated = await services.engine.catalog.updateImage({
        ...image,
        aliases: [...image.aliases, body.name],
      });
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
    handle: async ({ services, params }) => {
      const alias = params.alias ?? "";
      return { metadata: aliasToWire(alias, await imageOfAlias(services.engine, alias)) };
    },
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
      const alias = params.alias ?? "";
      const from = await imageOfAlias(services.engine, alias);
      // An alias already on its target stays put (that image exists: it has the alias).
      if (body.target !== from.fingerprint) await moveAlias(services.engine, alias, from, body.target);
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
      const alias = params.alias ?? "";
      const from = await imageOfAlias(services.engine, alias);
      if (body.target !== undefined && body.target !== from.fingerprint) {
        await moveAlias(services.engine, alias, from, body.target);
      }
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
      const alias = params.alias ?? "";
      const image = await imageOfAlias(services.engine, alias);
      await services.engine.catalog.updateImage({
        ...image,
        aliases: image.aliases.map((a) => (a === alias ? body.name : a)),
      });
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
      const alias = params.alias ?? "";
      const image = await imageOfAlias(services.engine, alias);
      await services.engine.catalog.updateImage({
        ...image,
        aliases: image.aliases.filter((a) => a !== alias),
      });
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
    handle: async ({ services, params }) => ({
      metadata: imageToWire(await services.engine.catalog.getImage(params.fingerprint ?? "")),
    }),
  }),
  defineRoute({
    method: "PUT",
    path: `${BASE}/:fingerprint`,
    operationId: "putImage",
    summary: "Replace an image's description and properties",
    tag: "images",
    access: "admin",
    body: "ImagePut",
    errors: [404],
    handle: async ({ services, params, body }) => {
      const image = await services.engine.catalog.getImage(params.fingerprint ?? "");
      await services.engine.catalog.updateImage({
        ...image,
        description: body.description,
        properties: body.properties,
      });
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
    errors: [404],
    handle: async ({ services, params, body }) => {
      const image = await services.engine.catalog.getImage(params.fingerprint ?? "");
      await services.engine.catalog.updateImage({
        ...image,
        description: body.description ?? image.description,
        properties: { ...image.properties, ...(body.properties ?? {}) },
      });
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
    handle: async ({ services, params }) => {
      await services.engine.catalog.deleteImage(params.fingerprint ?? "");
      return { metadata: {} };
    },
  }),
];
