import { BerthApiError, BerthTransportError } from "./errors.js";

/**
 * The `metadata` of an LXD sync envelope; an error envelope becomes a
 * `BerthApiError` carrying the server's status and text, anything else a
 * `BerthTransportError`.
 */
export function decodeEnvelope(status: number, text: string): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new BerthTransportError(
      `The server answered HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  if (typeof envelope !== "object" || envelope === null) {
    throw new BerthTransportError(`The server answered HTTP ${status} without an LXD envelope`);
  }
  const e = envelope as { type?: unknown; error?: unknown; error_code?: unknown; metadata?: unknown };
  if (e.type === "error") {
    const code = typeof e.error_code === "number" ? e.error_code : status;
    throw new BerthApiError(
      code,
      typeof e.error === "string" ? e.error : `HTTP ${status}`,
      e.metadata ?? null,
    );
  }
  if (e.type !== "sync") throw new BerthTransportError(`Unexpected envelope type ${JSON.stringify(e.type)}`);
  return e.metadata;
}
