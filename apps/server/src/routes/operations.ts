import { isAdmin, type Principal } from "../auth/principal.js";
import { badRequest, notFoundHttp } from "../http/http-error.js";
import type { OperationWire } from "../operations/operations.js";
import { operationUrl } from "../operations/operations.js";
import { TOKEN_PROJECT, tokenOperations } from "../trust/token-operations.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";
import type { ServerServices } from "./services.js";

const operation = "/1.0/operations/:id";

/**
 * The pending trust tokens, as LXD shows them: running `token` operations
 * of the default project. Only admins see them (they carry no secret: it is shown once, at creation).
 */
async function visibleTokenOperations(
  services: ServerServices,
  principal: Principal,
  project: string,
): Promise<OperationWire[]> {
  if (project !== TOKEN_PROJECT || !isAdmin(principal)) return [];
  return tokenOperations(services.trust, services.operations.location);
}

/** The operation, if it exists in the caller's project (another project's is "not found" too, as in LXD). */
async function findOperation(
  services: ServerServices,
  principal: Principal,
  id: string,
  project: string,
): Promise<OperationWire> {
  const found = services.operations.get(id);
  if (found !== undefined && found.project === project) return found.wire;
  const token = (await visibleTokenOperations(services, principal, project)).find((op) => op.id === id);
  if (token === undefined) throw notFoundHttp("Operation not found");
  return token;
}

/** `?timeout=N` of `/wait`: seconds, -1 (the default) waits for ever. */
function parseTimeout(raw: string | undefined): number {
  if (raw === undefined || raw === "") return -1;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < -1)
    throw badRequest(`Invalid query parameter "timeout": expected whole seconds or -1, got "${raw}"`);
  return seconds;
}

/**
 * LXD's operations (`src/operations/operations.ts`): the records of this
 * process's asynchronous answers, grouped by status in lists as LXD does.
 * Every Berth operation has finished by the time its 202 answer leaves,
 * so `/wait` answers at once and DELETE (cancel) is refused with LXD's text,
 * except pending trust tokens (`token` operations from the trust store),
 * which DELETE revokes.
 */
export const operationRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: "/1.0/operations",
    operationId: "listOperations",
    summary: "The project's operations, grouped by status (running, success, failure)",
    tag: "operations",
    access: "project",
    query: ["recursion", "project"],
    handle: async ({ services, recursion, project, principal }) => {
      const groups: Record<string, unknown[]> = {};
      const all = [
        ...services.operations.list(project),
        ...(await visibleTokenOperations(services, principal, project)),
      ];
      for (const one of all) {
        const key = one.status.toLowerCase();
        (groups[key] ??= []).push(recursion === 0 ? operationUrl(one.id) : one);
      }
      return { metadata: groups };
    },
  }),
  defineRoute({
    method: "GET",
    path: operation,
    operationId: "getOperation",
    summary: "One operation",
    tag: "operations",
    access: "project",
    response: "Operation",
    query: ["project"],
    errors: [404],
    handle: async ({ services, params, project, principal }) => ({
      metadata: await findOperation(services, principal, params.id, project),
    }),
  }),
  defineRoute({
    method: "GET",
    path: `${operation}/wait`,
    operationId: "waitOperation",
    summary: "Wait for an operation to finish (?timeout=seconds, -1 for ever); Berth's have always finished",
    tag: "operations",
    access: "project",
    response: "Operation",
    query: ["project", "timeout"],
    errors: [404],
    handle: async ({ services, params, project, principal, query }) => {
      parseTimeout(query("timeout"));
      return { metadata: await findOperation(services, principal, params.id, project) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: operation,
    operationId: "cancelOperation",
    summary:
      "Cancel an operation: a pending trust token is revoked (lxc config trust revoke-token); Berth's other operations have finished, and only running ones can be cancelled (LXD's text)",
    tag: "operations",
    access: "project",
    query: ["project"],
    errors: [404],
    handle: async ({ services, params, project, principal, log }) => {
      const found = await findOperation(services, principal, params.id, project);
      if (found.class === "token") {
        // Another server may have just seen it redeemed or revoked: then it is gone, as LXD's would be.
        if (!(await services.trust.store.cancelToken(found.id))) throw notFoundHttp("Operation not found");
        const name = (found.metadata?.request as { name?: string } | undefined)?.name;
        log.info({ name }, "trust token revoked");
        return { metadata: {} };
      }
      if (found.status !== "Running") throw badRequest("Only running operations can be cancelled");
      throw badRequest("This operation can't be cancelled");
    },
  }),
];
