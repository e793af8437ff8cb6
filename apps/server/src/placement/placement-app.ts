/**
 * berthd's OpenStack Placement API: one more translation over the engine,
 * served under `PLACEMENT_PREFIX` on every listener. This file is the
 * request cycle: version negotiation (400/406), authentication (401),
 * routing with microversion masking (404/405), policy (403), then the
 * route's handler; every answer carries `openstack-api-version`,
 * `vary` and `x-openstack-request-id`, and every error Placement's body.
 * Headers are read with `headerOf` (Node's parsed headers): `c.req.header()`
 * would build a fetch `Headers` object of the whole request first.
 */
import { randomUUID } from "node:crypto";
import type { Engine } from "@berth/engine";
import type { Context, Handler } from "hono";
import { isAdmin } from "../auth/principal.js";
import type { TokenStore } from "../auth/token-store.js";
import type { BodyBudget } from "../http/body-budget.js";
import { headerOf } from "../http/header.js";
import { readRequestText } from "../http/request-body.js";
import { requestLog } from "../http/request-log.js";
import type { ServerEnv } from "../http/server-env.js";
import {
  atLeast,
  formatMicroversion,
  MAX_MICROVERSION,
  MIN_MICROVERSION,
  type Microversion,
  negotiateMicroversion,
} from "./microversion.js";
import { placementPrincipal } from "./placement-auth.js";
import { asPlacementError, errorFormatFor, PlacementError, renderPlacementError } from "./placement-error.js";
import type { PlacementMethod, PlacementReply, PlacementRoute } from "./placement-route.js";
import { parseJsonBody, requireJsonContentType } from "./request-body.js";
import { placementRoutes } from "./routes.js";

/** Where berthd serves the Placement API: `endpoint_override = https://host:8443/placement`. */
export const PLACEMENT_PREFIX = "/placement";

export interface PlacementOptions {
  engine: Engine;
  tokens: TokenStore;
  noauth: boolean;
  bodyLimitBytes: number;
  /** Bytes all requests' bodies may hold at once (shared with the LXD API). */
  bodyBudget: BodyBudget;
}

interface CompiledRoute {
  route: PlacementRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: PlacementRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
}

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/** The Hono handler for `/placement` and everything under it. */
export function placementHandler(options: PlacementOptions): Handler<ServerEnv> {
  const compiled = placementRoutes.map(compile);
  return async (c) => {
    const requestId = `req-${randomUUID()}`;
    let version: Microversion | undefined;
    try {
      const negotiated = negotiateMicroversion(headerOf(c, "openstack-api-version"));
      if (!negotiated.ok) {
        throw new PlacementError(negotiated.status, negotiated.detail, undefined, {
          max_version: formatMicroversion(MAX_MICROVERSION),
          min_version: formatMicroversion(MIN_MICROVERSION),
        });
      }
      version = negotiated.version;
      const reply = await dispatch(c, compiled, options, version);
      return replyResponse(c, reply, version, requestId);
    } catch (error) {
      const placementError = asPlacementError(error);
      if (placementError.status >= 500) requestLog(c)?.error({ err: error }, "placement request failed");
      c.set("errorKind", `placement_${placementError.status}`);
      const rendered = renderPlacementError(
        placementError,
        errorFormatFor(headerOf(c, "accept")),
        requestId,
        version,
      );
      const headers = new Headers(commonHeaders(version ?? MIN_MICROVERSION, requestId));
      headers.set("content-type", rendered.contentType);
      for (const [name, value] of Object.entries(placementError.headers)) headers.set(name, value);
      return new Response(rendered.body, { status: placementError.status, headers });
    }
  };
}

async function dispatch(
  c: Context<ServerEnv>,
  compiled: CompiledRoute[],
  options: PlacementOptions,
  version: Microversion,
): Promise<PlacementReply> {
  const path = c.req.path.slice(PLACEMENT_PREFIX.length).replace(/\/+$/, "") || "/";
  // Routing as Placement's: a path no route has is 404; a method the path has not is 405 (listing
  // every method of the path); a route newer than the requested version is 404 (masked).
  const matching = compiled
    .map((entry) => ({ entry, match: entry.pattern.exec(path) }))
    .filter(({ match }) => match !== null);
  if (matching.length === 0) throw new PlacementError(404, "The resource could not be found.");
  const method = c.req.method as PlacementMethod;
  const chosen = matching.find(({ entry }) => entry.route.method === method);
  if (chosen === undefined) {
    const allowed = [...new Set(matching.map(({ entry }) => entry.route.method))].join(", ");
    throw new PlacementError(
      405,
      `The method ${c.req.method} is not allowed for this resource.`,
      undefined,
      {},
      { allow: allowed },
    );
  }
  if (!atLeast(version, chosen.entry.route.since ?? 0)) {
    if (chosen.entry.route.maskedStatus === 405) {
      const allowed = matching
        .filter(({ entry }) => entry !== chosen.entry)
        .map(({ entry }) => entry.route.method);
      throw new PlacementError(
        405,
        `The method ${c.req.method} is not allowed for this resource.`,
        undefined,
        {},
        { allow: [...new Set(allowed)].join(", ") },
      );
    }
    throw new PlacementError(404, "The resource could not be found.");
  }
  const { route } = chosen.entry;
  const params: Record<string, string> = {};
  chosen.entry.names.forEach((name, index) => {
    params[name] = decodeURIComponent(chosen.match?.[index + 1] ?? "");
  });
  // The root answers everyone; everything else needs a known caller and an admin (Placement's default policy).
  if (route.policy !== "placement:root") {
    const principal = await placementPrincipal(options, c.env?.listener, headerOf(c, "x-auth-token"));
    if (principal === undefined)
      throw new PlacementError(401, "The request you have made requires authentication.");
    c.set("principal", principal);
    if (method === "GET") requireJsonAccept(headerOf(c, "accept"));
    if (!isAdmin(principal))
      throw new PlacementError(403, `Policy does not allow ${route.policy} to be performed.`);
  }
  const hasBody = bodyPresent(c);
  let body: Promise<unknown> | undefined;
  return route.handle({
    version,
    params,
    query: new URL(c.req.url).searchParams,
    engine: options.engine,
    hasBody,
    json: () => {
      body ??= (async () => {
        requireJsonContentType(headerOf(c, "content-type"), hasBody);
        return parseJsonBody(
          await readRequestText(c.req.raw, c.env?.incoming, options.bodyLimitBytes, options.bodyBudget),
        );
      })();
      return body;
    },
  });
}

function bodyPresent(c: Context<ServerEnv>): boolean {
  if (!METHODS_WITH_BODY.has(c.req.method)) return false;
  const length = headerOf(c, "content-length");
  if (length !== undefined) return Number.parseInt(length, 10) > 0;
  return headerOf(c, "transfer-encoding") !== undefined;
}

/** GETs answer JSON only: an Accept header that excludes it gets 406. */
function requireJsonAccept(accept: string | undefined): void {
  if (accept === undefined || accept.trim() === "") return;
  const ok = accept
    .split(",")
    .map((part) => part.split(";")[0]?.trim().toLowerCase())
    .some((type) => type === "application/json" || type === "application/*" || type === "*/*");
  if (!ok) throw new PlacementError(406, "Only application/json is provided");
}

function commonHeaders(version: Microversion, requestId: string): Record<string, string> {
  return {
    "openstack-api-version": `placement ${formatMicroversion(version)}`,
    vary: "openstack-api-version",
    "x-openstack-request-id": requestId,
  };
}

function replyResponse(
  c: Context<ServerEnv>,
  reply: PlacementReply,
  version: Microversion,
  requestId: string,
): Response {
  // A plain object, not a fetch `Headers`: @hono/node-server writes a Response made from a string
  // and a plain object without building one (lower-case names, as `Headers` would give them).
  const headers = commonHeaders(version, requestId);
  // Absolute, with the mount prefix, so a client can follow it (Placement's webob answers absolute URLs too).
  if (reply.location !== undefined)
    headers.location = `${new URL(c.req.url).origin}${PLACEMENT_PREFIX}${reply.location}`;
  if (reply.lastModified !== undefined && atLeast(version, 15)) {
    headers["last-modified"] = reply.lastModified.toUTCString();
    headers["cache-control"] = "no-cache";
  }
  const status = reply.status ?? 200;
  const json = reply.json ?? (reply.body === undefined ? undefined : JSON.stringify(reply.body));
  if (json === undefined) return bodiless(c, status, headers);
  headers["content-type"] = "application/json";
  return new Response(json, { status, headers });
}

/**
 * A bodiless answer carries no content-type (gabbi checks: Placement's 201s
 * and 204s have none). @hono/node-server adds one to every response it
 * writes, so on Node the answer is written directly and Hono told it was
 * sent; without Node bindings (app.request in tests) it is a plain Response.
 */
function bodiless(c: Context<ServerEnv>, status: number, headers: Record<string, string>): Response {
  const outgoing = c.env?.outgoing;
  if (outgoing === undefined) return new Response(null, { status, headers });
  outgoing.writeHead(status, headers);
  outgoing.end();
  return new Response(null, { status, headers: { [ALREADY_SENT]: "true" } });
}

/** @hono/node-server's marker for a response the handler wrote itself (its RESPONSE_ALREADY_SENT). */
const ALREADY_SENT = "x-hono-already-sent";
