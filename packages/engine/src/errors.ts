/**
 * The engine's error vocabulary. Every failure the engine reports is an
 * `EngineError` with a `kind` the HTTP layer maps to a status code
 * (not_found → 404, conflict → 409, insufficient_capacity → 409/507,
 * forbidden → 403, invalid → 400, scriptlet → 400/500, unavailable → 503,
 * internal → 500).
 *
 * `unavailable`: the storage could not answer within its bound (a lock held
 * by another writer past the lock timeout, a lost database connection).
 * Nothing was written; the same request may succeed when retried, after
 * `details.retryAfterSeconds` (the API's `Retry-After`). Never a bug.
 */
export type EngineErrorKind =
  | "not_found"
  | "conflict"
  | "insufficient_capacity"
  | "forbidden"
  | "invalid"
  | "scriptlet"
  | "unavailable"
  | "internal";

export class EngineError extends Error {
  readonly kind: EngineErrorKind;
  /** Optional structured details (e.g. per-member rejection reasons). */
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: EngineErrorKind, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "EngineError";
    this.kind = kind;
    this.details = details;
  }
}

export function isEngineError(value: unknown, kind?: EngineErrorKind): value is EngineError {
  return value instanceof EngineError && (kind === undefined || value.kind === kind);
}

export const notFound = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("not_found", message, details);
export const conflict = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("conflict", message, details);
export const invalid = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("invalid", message, details);
export const forbidden = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("forbidden", message, details);
export const insufficientCapacity = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("insufficient_capacity", message, details);
export const unavailable = (
  message: string,
  details: { reason: string; retryAfterSeconds: number } & Record<string, unknown>,
): EngineError => new EngineError("unavailable", message, details);
export const internal = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("internal", message, details);

/**
 * The HTTP status each kind maps to (API.md). Scriptlet rejections are 400:
 * the operator's policy refused the request, which is not a server bug.
 */
export function httpStatusOf(kind: EngineErrorKind): number {
  switch (kind) {
    case "not_found":
      return 404;
    case "conflict":
      return 409;
    case "insufficient_capacity":
      return 507;
    case "forbidden":
      return 403;
    case "invalid":
      return 400;
    case "scriptlet":
      return 400;
    case "unavailable":
      return 503;
    case "internal":
      return 500;
  }
}
