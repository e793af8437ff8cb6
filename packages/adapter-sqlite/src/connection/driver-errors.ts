import { EngineError, unavailable } from "@berth/engine";

/**
 * Driver failures that callers can act on become EngineErrors; everything
 * else (including EngineErrors thrown by our own checks) passes through.
 * SQLITE_BUSY after busy_timeout means another process held the write lock
 * for too long: the claim did not happen and may be retried.
 */
export function translateDriverError(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) {
    return unavailable(
      `Database busy: another process held the database's write lock longer than the busy timeout; nothing was written, try again (${message})`,
      { reason: "busy", retryAfterSeconds: 1 },
    );
  }
  return error;
}

export function isBusy(error: unknown): boolean {
  return (
    error instanceof EngineError && (error.details as { reason?: unknown } | undefined)?.reason === "busy"
  );
}
