import { apiSchemas, syncResponse } from "@berth/api-types";
import type { Hono } from "hono";
import type { Logger } from "pino";
import { canUseProject, isAdmin, type Principal, projectRefusal } from "../auth/principal.js";
import { lazyClientSignal } from "../http/client-signal.js";
import { commonBodies } from "../http/common-bodies.js";
import { headerOf } from "../http/header.js";
import { forbiddenHttp } from "../http/http-error.js";
import { readJsonBody } from "../http/json-body.js";
import { preconditionOf } from "../http/precondition.js";
import { parseBoolean, parseProject, parseRecursion, parseTarget } from "../http/query.js";
import { requestLog } from "../http/request-log.js";
import type { ServerEnv } from "../http/server-env.js";
import { classifyError } from "../middleware/error-handler.js";
import { operationUrl } from "../operations/operations.js";
import type { RouteInput, RouteSpec } from "./route-spec.js";
import type { ServerServices } from "./services.js";

function authorize(spec: RouteSpec, principal: Principal, project: string): void {
  if (spec.access === "any") return;
  if (spec.access === "admin") {
    if (!isAdmin(principal)) {
      // A restricted certificate hears LXD's own refusal, which lxc prints as is.
      if (principal.kind === "certificate") throw forbiddenHttp("not authorized");
      throw forbiddenHttp(`Forbidden: ${spec.method} ${spec.path} needs an admin token`);
    }
    return;
  }
  if (!canUseProject(principal, project)) throw forbiddenHttp(projectRefusal(principal, project));
}

/**
 * Mounts one declarative route on Hono: query parsing, authorization,
 * body validation, then the engine call; the reply goes out in the LXD
 * sync envelope. The same `RouteSpec` feeds the OpenAPI document.
 */
export function registerRoute(app: Hono<ServerEnv>, spec: RouteSpec, services: ServerServices): void {
  // What does not change between requests is looked up once per route, not per request.
  const honours = new Set(spec.query ?? []);
  const bodySchema = spec.body !== undefined ? apiSchemas[spec.body] : undefined;
  const commonBody = spec.body !== undefined ? commonBodies[spec.body] : undefined;
  app.on(spec.method, spec.path, async (c) => {
    const params: Record<string, string> = c.req.param();
    const project =
      spec.projectParam !== undefined
        ? (params[spec.projectParam] ?? "default")
        : parseProject(honours.has("project") ? c.req.query("project") : undefined);
    const principal = c.get("principal");
    authorize(spec, principal, project);
    const body = bodySchema
      ? await readJsonBody(
          {
            request: c.req.raw,
            incoming: c.env?.incoming,
            maxBytes: services.bodyLimitBytes,
            budget: services.bodyBudget,
          },
          bodySchema,
          spec.bodyOptional === true,
          commonBody,
        )
      : undefined;
    if (spec.readsModel === true) await services.engine.sync();
    const clientSignal = lazyClientSignal(c);
    const input: RouteInput<unknown> = {
      services,
      params,
      body,
      project,
      recursion: honours.has("recursion") ? parseRecursion(c.req.query("recursion")) : 0,
      target: honours.has("target") ? parseTarget(c.req.query("target")) : undefined,
      dryRun: honours.has("dry_run") ? parseBoolean("dry_run", c.req.query("dry_run")) : false,
      principal,
      query: (name) => (honours.has(name) ? c.req.query(name) : undefined),
      header: (name) => headerOf(c, name),
      precondition: spec.etag === true ? preconditionOf(headerOf(c, "if-match")) : {},
      get log() {
        // accessLog, before every route, gave the request the server's logger.
        return requestLog(c) as Logger;
      },
      get signal() {
        return clientSignal();
      },
    };
    const protocol = operationProtocol(headerOf(c, "user-agent"), headerOf(c, "prefer"));
    if (spec.operation !== undefined && !input.dryRun && protocol !== undefined) {
      const operations = services.operations;
      const { description, resources } = spec.operation;
      const started = operations.start(
        project,
        typeof description === "string" ? description : description(input),
        resources(input),
      );
      // Berth's client reads the synchronous answer it would have had from the operation.
      const carry = (response: SyncAnswer) => (protocol === "berth" ? { metadata: { response } } : {});
      let finished: ReturnType<typeof operations.finish>;
      try {
        const reply = await spec.handle(input);
        finished = operations.finish(
          started.id,
          carry({
            status: reply.status ?? 200,
            ...(reply.location !== undefined ? { location: reply.location } : {}),
            ...(reply.etag !== undefined ? { etag: `"${reply.etag}"` } : {}),
            metadata: reply.metadata ?? null,
          }),
        );
      } catch (error) {
        const classified = classifyError(error);
        if (classified.isBug) {
          operations.finish(started.id, { error: "Internal server error" });
          throw error;
        }
        c.set("errorKind", classified.kind);
        const prefix = spec.operation.failurePrefix ?? "";
        finished = operations.finish(started.id, {
          error: `${prefix}${classified.message}`,
          ...carry({ status: classified.status, error: classified.message, metadata: classified.metadata }),
        });
      }
      const url = operationUrl(finished.id);
      c.header("Location", url);
      return c.json(asyncResponse(url, finished), 202);
    }
    const reply = await spec.handle(input);
    if (reply.location !== undefined) c.header("Location", reply.location);
    if (reply.etag !== undefined) c.header("ETag", `"${reply.etag}"`);
    return c.json(syncResponse(reply.metadata), reply.status ?? 200);
  });
}

/** The synchronous answer a Berth caller would have had, kept in its operation's `metadata.response`. */
type SyncAnswer =
  | { status: number; location?: string; etag?: string; metadata: unknown }
  | { status: number; error: string; metadata: unknown };

/**
 * Whether the caller speaks LXD's operation protocol, and whose:
 * `"lxd"` for LXD's own client (`lxc`, and every Go program on LXD's
 * client library, which sends `User-Agent: LXD <version>`), `"berth"` for
 * a caller that asks with `Prefer: respond-async` (RFC 7240; Berth's
 * `@berth/client` does), whose operation also carries the synchronous
 * answer in `metadata.response`. Other callers (curl, scripts) get the
 * synchronous answer.
 */
export function operationProtocol(
  userAgent: string | undefined,
  prefer: string | undefined,
): "lxd" | "berth" | undefined {
  if (userAgent?.startsWith("LXD ") === true) return "lxd";
  if (prefer === undefined) return undefined;
  const preferences = prefer.split(",").map((one) => one.split(";")[0]?.trim().toLowerCase());
  return preferences.includes("respond-async") ? "berth" : undefined;
}

/** LXD's async envelope: the operation's URL and the operation itself. */
export function asyncResponse(url: string, operation: unknown) {
  return {
    type: "async",
    status: "Operation created",
    status_code: 100,
    operation: url,
    error_code: 0,
    error: "",
    metadata: operation,
  };
}
