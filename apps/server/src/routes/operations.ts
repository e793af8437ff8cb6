import { badRequest, notFoundHttp } from "../http/http-error.js";
import type { Operations, OperationWire } from "../operations/operations.js";
import { operationUrl } from "../operations/operations.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const operation = "/1.0/operations/:id";

/** The operation, if it exists in the caller's project (another project's is "not found" too, as in LXD). */
function findOperation(operations: Operations, id: string, project: string): OperationWire {
  const found = operations.get(id);
  if (found === undefined || found.project !== project) throw notFoundHttp("Operation not found");
  return found.wire;
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
 * so `/wait` answers at once and DELETE (cancel) is refused with LXD's text.
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
    handle: ({ services, recursion, project }) => {
      const groups: Record<string, unknown[]> = {};
      for (const one of services.operations.list(project)) {
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
    query: ["project"],
    errors: [404],
    handle: ({ services, params, project }) => ({
      metadata: findOperation(services.operations, params.id, project),
    }),
  }),
  defineRoute({
    method: "GET",
    path: `${operation}/wait`,
    operationId: "waitOperation",
    summary: "Wait for an operation to finish (?timeout=seconds, -1 for ever); Berth's have always finished",
    tag: "operations",
    access: "project",
    query: ["project", "timeout"],
    errors: [404],
    handle: ({ services, params, project, query }) => {
      parseTimeout(query("timeout"));
      return { metadata: findOperation(services.operations, params.id, project) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: operation,
    operationId: "cancelOperation",
    summary: "Cancel an operation: only running ones can be (LXD's text), and Berth's have finished",
    tag: "operations",
    access: "project",
    query: ["project"],
    errors: [404],
    handle: ({ services, params, project }) => {
      const found = findOperation(services.operations, params.id, project);
      if (found.status !== "Running") throw badRequest("Only running operations can be cancelled");
      throw badRequest("This operation can't be cancelled");
    },
  }),
];
