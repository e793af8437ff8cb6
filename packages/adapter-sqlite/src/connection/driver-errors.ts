import { EngineError, unavailable } from "@berth/engine";

/**
 * Driver failures that callers can act on become EngineErrors; everything
 * else (including EngineErrors thrown by our own checks) passes through.
 * SQLITE_BUSY after busy_timeout means another process held the write lock
 * for too long: the claim did not happen and may be retried. A full disk,
 * an I/O error and a database file that cannot be written are the
 * database's trouble, not a bug: `unavailable` (503 with Retry-After) with
 * a message naming the cause, so the operator knows what to fix; SQLite
 * rolled the transaction back, nothing was written, reads keep working, and
 * writes succeed again once the cause is gone.
 */
const STORAGE_FAULTS: Record<string, { reason: string; retryAfterSeconds: number; cause: string }> = {
  SQLITE_FULL: {
    reason: "disk_full",
    retryAfterSeconds: 30,
    cause: "the disk holding the database file is full; free space on it",
  },
  SQLITE_IOERR: {
    reason: "io_error",
    retryAfterSeconds: 5,
    cause:
      "the operating system refused or failed a write to the database file (an I/O error: a file made read-only or immutable, a failing disk); check the file and its disk",
  },
  SQLITE_READONLY: {
    reason: "read_only",
    retryAfterSeconds: 30,
    cause:
      "the database file cannot be written (read-only file, directory or filesystem); give berthd write access to it",
  },
};

export function translateDriverError(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code !== "string") return error;
  if (code.startsWith("SQLITE_BUSY")) {
    return unavailable(
      `Database busy: another process held the database's write lock longer than the busy timeout; nothing was written, try again (${message})`,
      { reason: "busy", retryAfterSeconds: 1 },
    );
  }
  const fault = STORAGE_FAULTS[code];
  if (fault !== undefined) {
    return unavailable(`Database unavailable: ${fault.cause}; nothing was written (${code}: ${message})`, {
      reason: fault.reason,
      retryAfterSeconds: fault.retryAfterSeconds,
    });
  }
  return error;
}

export function isBusy(error: unknown): boolean {
  return (
    error instanceof EngineError && (error.details as { reason?: unknown } | undefined)?.reason === "busy"
  );
}
