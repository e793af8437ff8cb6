/**
 * The engine's error vocabulary. Every failure the engine reports is an
 * `EngineError` with a `kind`; each protocol maps kinds to its own codes
 * (berthd's HTTP statuses live in apps/server, not here).
 *
 * `stale`: the caller named the version of a record it read (an ETag) and
 * the stored record is no longer that version, so the change was refused
 * rather than applied over someone else's.
 *
 * `unavailable`: the storage could not answer within its bound (a lock held
 * by another writer past the lock timeout, a lost database connection).
 * Nothing was written; the same request may succeed when retried, after
 * `details.retryAfterSeconds` (berthd's 503 `Retry-After`). Never a bug.
 */
export type EngineErrorKind =
  | "not_found"
  | "conflict"
  | "stale"
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
export const stale = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("stale", message, details);
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
