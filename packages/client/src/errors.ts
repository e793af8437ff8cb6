/**
 * A failure reported by berthd in the LXD error envelope. `status` is the
 * HTTP status (400, 401, 403, 404, 409, 412, 413, 507, 500), `message` the
 * server's text, verbatim (scriptlet rejections are compatibility contracts).
 */
export class BerthApiError extends Error {
  /** Set so logs and `instanceof`-free checks can tell the error apart. */
  override readonly name = "BerthApiError";
  /** The HTTP status berthd answered. */
  readonly status: number;
  /**
   * The error envelope's `metadata`: details when the server sent some (e.g. a bulk create's
   * failing index), else null.
   */
  readonly metadata: unknown;

  constructor(status: number, message: string, metadata: unknown = null) {
    super(message);
    this.status = status;
    this.metadata = metadata;
  }
}

/** The server could not be reached or answered something that is not the LXD envelope. */
export class BerthTransportError extends Error {
  /** Set so logs and `instanceof`-free checks can tell the error apart. */
  override readonly name = "BerthTransportError";
  /** The system error code when there is one (ENOENT, ECONNREFUSED, ETIMEDOUT...). */
  readonly code: string | undefined;

  constructor(message: string, code?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
