/**
 * PostgreSQL failures callers can act on become EngineErrors of kind
 * `unavailable` (HTTP 503 with Retry-After): the database did not answer
 * within its bound or the connection was lost. Nothing was committed, and
 * the request may be retried. Everything else passes through unchanged
 * (EngineErrors of our own checks, and bugs, which stay 500).
 */
import { EngineError, unavailable } from "@berth/engine";

/** SQLSTATEs a retry of the whole transaction resolves (another transaction won a race). */
export const RETRY_TRANSACTION = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

/** The unique violation: two writers inserted the same key; re-run so the rules name the refusal. */
export const UNIQUE_VIOLATION = "23505";

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

const CONNECTION_MESSAGES = [
  "Connection terminated",
  "connection error",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Client was closed and is not queryable",
  "Connection is closed",
];

export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) {
    if (code.startsWith("08")) return true; // connection_exception
    if (
      ["57P01", "57P02", "57P03", "53300", "ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(code)
    )
      return true;
  }
  const message = error instanceof Error ? error.message : String(error);
  return CONNECTION_MESSAGES.some((text) => message.includes(text));
}

export function translateDriverError(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === "55P03") {
    return unavailable(
      "Database busy: another writer holds the rows this change needs longer than the lock timeout; nothing was written, try again",
      { reason: "lock_timeout", retryAfterSeconds: 1 },
    );
  }
  if (code === "57014") {
    return unavailable(
      "Database busy: the statement ran longer than the statement timeout; nothing was written, try again",
      { reason: "statement_timeout", retryAfterSeconds: 1 },
    );
  }
  if (code !== undefined && RETRY_TRANSACTION.has(code)) {
    return unavailable(
      `Database busy: too many concurrent writers (${message}); nothing was written, try again`,
      { reason: "contention", retryAfterSeconds: 1 },
    );
  }
  if (isConnectionFailure(error)) {
    return unavailable(
      `Database unavailable: the connection to PostgreSQL failed (${message}); nothing was written, try again`,
      { reason: "connection", retryAfterSeconds: 2 },
    );
  }
  return error;
}

/** The `reason` of an `unavailable` error whose transaction may or may not have committed. */
export const COMMIT_UNKNOWN = "commit_unknown";

/**
 * The connection was lost after COMMIT was sent: PostgreSQL may have
 * committed before it went. Callers that can tell from the change feed
 * (claims: their tokens are in their entry) resolve it; to anyone else it
 * is a 503 that says so.
 */
export function commitOutcomeUnknown(error: unknown): EngineError {
  const message = error instanceof Error ? error.message : String(error);
  return unavailable(
    `Database unavailable: the connection to PostgreSQL was lost while the change was being committed (${message}); it may or may not have been written, read it back before trying again`,
    { reason: COMMIT_UNKNOWN, retryAfterSeconds: 2 },
  );
}

export function isCommitOutcomeUnknown(error: unknown): error is EngineError {
  return error instanceof EngineError && error.details?.reason === COMMIT_UNKNOWN;
}
