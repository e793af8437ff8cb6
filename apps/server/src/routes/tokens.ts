import { issueToken, TokenIssueError } from "../auth/issue-token.js";
import type { TokenRecord } from "../auth/token-store.js";
import { HttpError, notFoundHttp } from "../http/http-error.js";
import { missingProject } from "../trust/project-bindings.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

/** The public view of a token: never the hash, let alone the secret. */
function publicToken(record: TokenRecord) {
  return {
    name: record.name,
    description: record.description ?? "",
    admin: record.admin,
    projects: record.admin ? [] : record.projects,
    created_at: record.created_at,
  };
}

/** Token administration over the API, for admins (the first admin token comes from `berthd token create`). */
export const tokenRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: "/1.0/auth/tokens",
    operationId: "listTokens",
    summary: "List API tokens (names and scopes; secrets are never shown again)",
    tag: "auth",
    access: "admin",
    query: ["recursion"],
    handle: async ({ services, recursion }) => {
      const tokens = await services.tokens.list();
      return {
        metadata:
          recursion === 0
            ? tokens.map((t) => `/1.0/auth/tokens/${encodeURIComponent(t.name)}`)
            : tokens.map(publicToken),
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/1.0/auth/tokens",
    operationId: "createToken",
    summary: "Create a token, admin or restricted to projects; the answer holds the secret, shown only once",
    tag: "auth",
    access: "admin",
    body: "TokensPost",
    response: "TokenCreated",
    creates: true,
    errors: [404, 409],
    handle: async ({ services, body }) => {
      if (!body.admin) {
        const names = new Set((await services.engine.catalog.listProjects()).map((p) => p.name));
        const missing = await missingProject(body.projects, async (name) => names.has(name));
        // A token naming a project that does not exist yet would reach whatever is later created under that name.
        if (missing !== undefined) throw notFoundHttp(`Project "${missing}" not found`);
      }
      try {
        const { record, secret } = await issueToken(
          services.tokens,
          body.name,
          body.admin ? { admin: true } : { admin: false, projects: body.projects },
          body.description ?? "",
        );
        return {
          metadata: { name: record.name, secret },
          status: 201,
          location: `/1.0/auth/tokens/${encodeURIComponent(record.name)}`,
        };
      } catch (err) {
        if (err instanceof TokenIssueError) throw new HttpError(err.conflict ? 409 : 400, err.message);
        throw err;
      }
    },
  }),
  defineRoute({
    method: "GET",
    path: "/1.0/auth/tokens/:name",
    operationId: "getToken",
    summary: "Show one token",
    tag: "auth",
    access: "admin",
    response: "Token",
    errors: [404],
    handle: async ({ services, params }) => {
      const record = (await services.tokens.list()).find((t) => t.name === params.name);
      if (!record) throw notFoundHttp(`Token "${params.name}" not found`);
      return { metadata: publicToken(record) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/1.0/auth/tokens/:name",
    operationId: "deleteToken",
    summary: "Revoke a token (effective immediately, on every server sharing the database)",
    tag: "auth",
    access: "admin",
    errors: [404],
    handle: async ({ services, params }) => {
      const name = params.name;
      if (!(await services.tokens.delete(name))) throw notFoundHttp(`Token "${name}" not found`);
      return { metadata: {} };
    },
  }),
];
