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

/**
 * The one error type the engine throws: a `kind` to branch on, a message meant for the user
 * (LXD's, Incus's or Placement's text where one exists), optional details.
 */
export class EngineError extends Error {
  /**
   * What went wrong, for mapping to a protocol's code (berthd: apps/server/src/wire/status-of.ts).
   */
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

/** Whether `value` is an `EngineError`, of `kind` when one is given. */
export function isEngineError(value: unknown, kind?: EngineErrorKind): value is EngineError {
  return value instanceof EngineError && (kind === undefined || value.kind === kind);
}

/** A record the caller named does not exist (HTTP 404 in berthd). */
export const notFound = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("not_found", message, details);
/**
 * The request clashes with the stored state: a name taken, a record in use, a generation moved on
 * (409).
 */
export const conflict = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("conflict", message, details);
/** An `ifMatch` ETag that is no longer the record's version (412). */
export const stale = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("stale", message, details);
/**
 * The request itself is wrong: a bad value, a refused config, a scriptlet that does not compile
 * (400).
 */
export const invalid = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("invalid", message, details);
/** The project or member does not allow it: a restricted project, an evacuated member (403). */
export const forbidden = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("forbidden", message, details);
/** No member has room; `details.rejections` says why per member (507). */
export const insufficientCapacity = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("insufficient_capacity", message, details);
/**
 * The storage did not answer within its bound; nothing was written, retry after
 * `details.retryAfterSeconds` (503).
 */
export const unavailable = (
  message: string,
  details: { reason: string; retryAfterSeconds: number } & Record<string, unknown>,
): EngineError => new EngineError("unavailable", message, details);
/** A bug: a state the engine's own rules should have made impossible (500). */
export const internal = (message: string, details?: Record<string, unknown>): EngineError =>
  new EngineError("internal", message, details);
