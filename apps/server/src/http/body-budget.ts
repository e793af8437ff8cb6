/**
 * One bound on the request-body bytes all requests together hold in
 * memory while their bodies arrive. The per-request limit alone lets an
 * authenticated client open many slow connections, each holding up to the
 * body limit for as long as Node's request timeout (300 s); with the
 * budget, a body that would take the total past it is refused with 503
 * and `Retry-After` (come back when others have finished) instead.
 */
import { HttpError } from "./http-error.js";

/** 64 MiB: sixty-four bodies at the default 1 MiB limit, far beyond any real burst of creates. */
export const DEFAULT_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

/** Seconds a refused client is asked to wait: slow bodies finish or time out in that order of time. */
const RETRY_AFTER_SECONDS = 1;

export class BodyBudget {
  private held = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes currently held by bodies being received (metrics, tests). */
  get heldBytes(): number {
    return this.held;
  }

  /** Takes `bytes` more, or throws the 503 when that would pass the limit (nothing taken then). */
  take(bytes: number): void {
    if (this.held + bytes > this.limitBytes) {
      throw new HttpError(
        503,
        `Server busy: request bodies being received already hold ${this.held} bytes of the ${this.limitBytes}-byte limit; retry shortly`,
        { "Retry-After": String(RETRY_AFTER_SECONDS) },
      );
    }
    this.held += bytes;
  }

  release(bytes: number): void {
    this.held -= bytes;
  }
}
