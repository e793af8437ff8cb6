import { errorResponse, toValidationError } from "@berth/api-types";
import { EngineError } from "@berth/engine";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { HttpError } from "../http/http-error.js";
import { requestLog } from "../http/request-log.js";
import type { ServerEnv } from "../http/server-env.js";
import { httpStatusOf } from "../wire/status-of.js";

interface ClassifiedError {
  status: ContentfulStatusCode;
  message: string;
  headers: Record<string, string>;
  /** Only the failures that point at a bug get a stack trace in the log. */
  isBug: boolean;
  kind: string;
  /** Structured details for the envelope's `metadata` (e.g. which instance of a bulk create failed). */
  metadata: unknown;
}

export function classifyError(err: unknown): ClassifiedError {
  if (err instanceof HttpError) {
    return {
      status: err.status,
      message: err.message,
      headers: err.headers,
      isBug: false,
      kind: "http",
      metadata: null,
    };
  }
  if (err instanceof EngineError) {
    const status = httpStatusOf(err.kind);
    // 507 (no capacity) is an answer, not a failure of berthd; only "internal" is a bug.
    const isBug = err.kind === "internal";
    // An internal error's details may hold anything; only the log gets them.
    const metadata = isBug ? null : (err.details ?? null);
    // 503: the database did not answer within its bound; the client may retry after this long.
    const retryAfter = err.kind === "unavailable" ? Number(err.details?.retryAfterSeconds ?? 1) : undefined;
    const headers: Record<string, string> =
      retryAfter === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) };
    return { status, message: err.message, headers, isBug, kind: err.kind, metadata };
  }
  if (err instanceof ZodError) {
    return {
      status: 400,
      message: toValidationError(err).message,
      headers: {},
      isBug: false,
      kind: "invalid",
      metadata: null,
    };
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return {
      status,
      message: err.message || "Request failed",
      headers: {},
      isBug: status >= 500,
      kind: "http",
      metadata: null,
    };
  }
  return {
    status: 500,
    message: "Internal server error",
    headers: {},
    isBug: true,
    kind: "internal",
    metadata: null,
  };
}

/** Every failure leaves in the LXD error envelope; bugs are logged with their stack, never shown to the client. */
export const handleError: ErrorHandler<ServerEnv> = (err, c) => {
  const classified = classifyError(err);
  c.set("errorKind", classified.kind);
  if (classified.isBug) requestLog(c)?.error({ err }, "request failed with an internal error");
  for (const [name, value] of Object.entries(classified.headers)) c.header(name, value);
  return c.json(errorResponse(classified.status, classified.message, classified.metadata), classified.status);
};

/** Unknown URLs are 404 in the LXD envelope. */
export const notFoundHandler: NotFoundHandler<ServerEnv> = (c) => {
  c.set("errorKind", "not_found");
  return c.json(errorResponse(404, `Unknown API endpoint: ${c.req.method} ${c.req.path}`), 404);
};

/**
 * A known URL with a verb it does not have is 405 with an `Allow` header
 * (hono/method-not-allowed finds the verbs), so a client learns what it may
 * do there; the answer is an LXD envelope like every other error.
 */
export function methodNotAllowedHandler(c: Context<ServerEnv>, allowed: string[]): Response {
  c.set("errorKind", "method_not_allowed");
  const list = allowed.join(", ");
  return c.json(
    errorResponse(405, `Method ${c.req.method} not allowed on ${c.req.path} (allowed: ${list})`),
    405,
    {
      Allow: list,
    },
  );
}
