/**
 * Placement's error answers: `{"errors": [{status, title, detail, code,
 * request_id}]}` (the `code` member from microversion 1.23), or the same
 * text as HTML or plain text when the client does not accept JSON, as the
 * real service (webob) does. Routes throw `PlacementError`; the handler in
 * `placement-app.ts` renders it.
 */
import { EngineError } from "@berth/engine";
import type { Microversion } from "./microversion.js";
import { atLeast } from "./microversion.js";

/** Placement's error codes (placement/errors.py): what a client may branch on. */
export const PLACEMENT_CODES = {
  default: "placement.undefined_code",
  inventoryInUse: "placement.inventory.inuse",
  concurrentUpdate: "placement.concurrent_update",
  duplicateName: "placement.duplicate_name",
  providerInUse: "placement.resource_provider.inuse",
  cannotDeleteParent: "placement.resource_provider.cannot_delete_parent",
  providerNotFound: "placement.resource_provider.not_found",
  illegalDuplicateQueryParameter: "placement.query.duplicate_key",
  queryBadValue: "placement.query.bad_value",
  queryMissingValue: "placement.query.missing_value",
} as const;

const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  413: "Request Entity Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
};

export class PlacementError extends Error {
  override readonly name = "PlacementError";
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string = PLACEMENT_CODES.default,
    /** Extra members of the error entry (the 406 answer names the served range). */
    readonly extra: Readonly<Record<string, string>> = {},
    /** Extra response headers (405 names the allowed methods). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
  }
  get title(): string {
    return TITLES[this.status] ?? "Error";
  }
}

export const badRequest = (detail: string, code?: string) => new PlacementError(400, detail, code);
export const notFoundError = (detail: string, code?: string) => new PlacementError(404, detail, code);
export const conflictError = (detail: string, code?: string) => new PlacementError(409, detail, code);

/** Engine refusals in Placement's statuses; their texts are already Placement's where the rules share them. */
/** Placement's code for an engine refusal that names its reason (`ProviderRefusal`). */
const CODE_OF_REASON: Readonly<Record<string, string>> = {
  generation: PLACEMENT_CODES.concurrentUpdate,
  name_taken: PLACEMENT_CODES.duplicateName,
  uuid_taken: PLACEMENT_CODES.duplicateName,
  has_children: PLACEMENT_CODES.cannotDeleteParent,
  inventory_in_use: PLACEMENT_CODES.inventoryInUse,
  provider_in_use: PLACEMENT_CODES.providerInUse,
  consumer_generation: PLACEMENT_CODES.concurrentUpdate,
};

export function fromEngineError(error: EngineError): PlacementError {
  const reason = error.details?.reason;
  const code = typeof reason === "string" ? CODE_OF_REASON[reason] : undefined;
  if (code !== undefined) return new PlacementError(409, error.message, code);
  switch (error.kind) {
    case "not_found":
      return new PlacementError(404, error.message);
    case "conflict":
    case "stale":
    case "insufficient_capacity":
      return new PlacementError(409, error.message);
    case "invalid":
    case "scriptlet":
      return new PlacementError(400, error.message);
    case "forbidden":
      return new PlacementError(403, error.message);
    default:
      return new PlacementError(500, error.message);
  }
}

export function asPlacementError(error: unknown): PlacementError {
  if (error instanceof PlacementError) return error;
  if (error instanceof EngineError) return fromEngineError(error);
  return new PlacementError(500, "An unexpected error occurred");
}

export type ErrorFormat = "json" | "html" | "plain";

/** webob's choice among its three renderings, from the Accept header (absent: JSON). */
export function errorFormatFor(accept: string | undefined): ErrorFormat {
  if (accept === undefined || accept.trim() === "") return "json";
  if (accept.includes("application/json")) return "json";
  if (accept.includes("text/html")) return "html";
  if (accept.includes("text/plain")) return "plain";
  return "json";
}

export interface RenderedError {
  body: string;
  contentType: string;
}

export function renderPlacementError(
  error: PlacementError,
  format: ErrorFormat,
  requestId: string,
  version: Microversion | undefined,
): RenderedError {
  const heading = `${error.status} ${error.title}`;
  if (format === "html") {
    const body = `<html>\n <head>\n  <title>${heading}</title>\n </head>\n <body>\n  <h1>${heading}</h1>\n  ${escapeHtml(error.detail)}<br /><br />\n\n\n\n </body>\n</html>`;
    return { body, contentType: "text/html; charset=UTF-8" };
  }
  if (format === "plain") {
    return { body: `${heading}\n\n${error.detail}\n\n   `, contentType: "text/plain; charset=UTF-8" };
  }
  const entry: Record<string, unknown> = {
    status: error.status,
    title: error.title,
    detail: `${preamble(error.status)}\n\n ${error.detail}  `,
    request_id: requestId,
    ...error.extra,
  };
  // The code member appeared with 1.23; a failed version negotiation has no version.
  if (version !== undefined && atLeast(version, 23)) entry.code = error.code;
  return { body: JSON.stringify({ errors: [entry] }), contentType: "application/json" };
}

/** webob's explanation line that precedes the detail. */
function preamble(status: number): string {
  switch (status) {
    case 400:
      return "The server could not comply with the request since it is either malformed or otherwise incorrect.";
    case 401:
      return "This server could not verify that you are authorized to access the document you requested.";
    case 403:
      return "Access was denied to this resource.";
    case 404:
      return "The resource could not be found.";
    case 405:
      return "The method is not allowed for this resource.";
    case 406:
      return "The resource could not be generated that was acceptable to your browser (content of type application/json.";
    case 409:
      return "There was a conflict when trying to complete your request.";
    case 415:
      return "The request media type is not supported by this server.";
    default:
      return "The server has either erred or is incapable of performing the requested operation.";
  }
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
