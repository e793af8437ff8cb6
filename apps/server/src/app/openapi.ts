import { type ApiSchemaName, apiJsonSchemas, apiSchemas } from "@berth/api-types";
import { certificatesOpenApiPaths } from "../routes/certificates.js";
import { eventsOpenApiPaths } from "../routes/events.js";
import { rawRoutePaths } from "../routes/raw-routes.js";
import type { QueryName, RouteSpec } from "../routes/route-spec.js";

type JsonObject = Record<string, unknown>;

const QUERY_PARAMETERS: Record<QueryName, JsonObject> = {
  recursion: {
    name: "recursion",
    in: "query",
    description: "0: list URLs (default); 1: full objects; 2: full objects with extra detail",
    schema: { type: "integer", enum: [0, 1, 2] },
  },
  project: {
    name: "project",
    in: "query",
    description: 'Project to act in (default "default")',
    schema: { type: "string" },
  },
  target: {
    name: "target",
    in: "query",
    description: "Cluster member name, or @group to restrict placement to a member group",
    schema: { type: "string" },
  },
  dry_run: {
    name: "dry_run",
    in: "query",
    description: "Decide without claiming: returns the decision, candidates, scriptlet logs and cost",
    schema: { type: "boolean" },
  },
  filter: {
    name: "filter",
    in: "query",
    description: "LXD filter: FIELD eq|ne VALUE clauses joined by and/or, e.g. `location eq node1`",
    schema: { type: "string" },
  },
  timeout: {
    name: "timeout",
    in: "query",
    description: "Seconds to wait for the operation (-1: no limit)",
    schema: { type: "integer" },
  },
  "all-projects": {
    name: "all-projects",
    in: "query",
    description: "Every project's entries (overrides `project`)",
    schema: { type: "boolean" },
  },
};

const IF_MATCH: JsonObject = {
  name: "If-Match",
  in: "header",
  description:
    "The ETag of a previous GET (quoted or not): the write is refused with 412 if the record changed since",
  schema: { type: "string" },
};

const PREFER: JsonObject = {
  name: "Prefer",
  in: "header",
  description:
    'RFC 7240 "respond-async": answer 202 with an LXD operation (already finished) instead of the sync answer. ' +
    "LXD's own client (User-Agent LXD ...) gets the operation without asking, as from LXD.",
  schema: { type: "string", enum: ["respond-async"] },
};

const ETAG_HEADER: JsonObject = {
  description: "The record's version (quoted SHA-256 of its content); send it back in If-Match",
  schema: { type: "string" },
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (the message names the field)",
  401: "Missing or invalid bearer token (TCP only)",
  403: "The token may not do this (admin only, or outside its projects)",
  404: "Not found",
  409: "Conflict (name taken, generation mismatch, resource in use)",
  412: "If-Match names an ETag the record no longer has (it changed since it was read)",
  413: "Request body larger than the server's limit",
  507: "No member has the capacity (the message says which class ran out)",
};

/**
 * The component a schema is published under: api-types registers a schema
 * object once, under its first name (ServerPatch is the same schema as ServerPut).
 */
function componentName(name: ApiSchemaName): string {
  const schema = apiSchemas[name];
  const first = (Object.keys(apiSchemas) as ApiSchemaName[]).find((n) => apiSchemas[n] === schema);
  return first ?? name;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operationFor(route: RouteSpec): JsonObject {
  const parameters: JsonObject[] = [];
  for (const match of route.path.matchAll(/:([A-Za-z_]+)/g)) {
    parameters.push({ name: match[1], in: "path", required: true, schema: { type: "string" } });
  }
  for (const q of route.query ?? []) parameters.push(QUERY_PARAMETERS[q]);
  const writes = route.method === "PUT" || route.method === "PATCH";
  if (route.etag === true && writes) parameters.push(IF_MATCH);
  const successSchema = route.response
    ? {
        allOf: [
          ref("SyncResponse"),
          { type: "object", properties: { metadata: ref(componentName(route.response)) } },
        ],
      }
    : ref("SyncResponse");
  const responses: JsonObject = {
    [route.creates ? "201" : "200"]: {
      description: "Success",
      content: { "application/json": { schema: successSchema } },
      ...(route.etag === true && route.method === "GET" ? { headers: { ETag: ETAG_HEADER } } : {}),
    },
  };
  if (route.operation !== undefined) {
    parameters.push(PREFER);
    responses["202"] = {
      description:
        "With Prefer: respond-async or from LXD's client: the operation, finished (Success, or Failure with err); " +
        "metadata.response holds the sync answer for Prefer callers",
      content: { "application/json": { schema: ref("AsyncResponse") } },
    };
  }
  for (const status of [400, 401, 403, ...(route.body ? [413] : []), ...(route.errors ?? [])]) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? "Error",
      content: { "application/json": { schema: ref("ErrorResponse") } },
    };
  }
  const operation: JsonObject = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    parameters,
    responses,
    "x-berth-access": route.access,
  };
  if (route.body) {
    operation.requestBody = {
      required: route.bodyOptional !== true,
      content: { "application/json": { schema: ref(componentName(route.body)) } },
    };
  }
  return operation;
}

/**
 * The OpenAPI 3.1 document of berthd, generated from the route table and the
 * very zod schemas (api-types' registry) that validate requests, so the
 * document cannot drift from the code.
 */
export function buildOpenApiDocument(routes: readonly RouteSpec[], version: string): JsonObject {
  const paths: Record<string, JsonObject> = {
    ...rawRoutePaths,
    ...eventsOpenApiPaths,
    ...certificatesOpenApiPaths(),
  };
  for (const route of routes) {
    const openApiPath = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    const item = (paths[openApiPath] ??= {});
    item[route.method.toLowerCase()] = operationFor(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Berth API",
      version,
      description:
        "Instance placement service with an LXD-shaped REST API. Every answer is an LXD envelope: " +
        '{"type":"sync",...,"metadata":...} or {"type":"error","error":"...","error_code":N}.',
    },
    servers: [{ url: "http://127.0.0.1:8443" }],
    components: {
      schemas: apiJsonSchemas(),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        // LXD's way over HTTPS: a client certificate berthd trusts (/1.0/certificates).
        tlsClientCertificate: { type: "mutualTLS" },
      },
    },
    security: [{ bearer: [] }, { tlsClientCertificate: [] }],
    paths,
  };
}
