import { EngineError } from "@berth/engine";

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
    return new EngineError("internal", `Database is locked by another writer; try again (${message})`, {
      reason: "busy",
    });
  }
  return error;
}

export function isBusy(error: unknown): boolean {
  return (
    error instanceof EngineError && (error.details as { reason?: unknown } | undefined)?.reason === "busy"
  );
}
