import { decodeEnvelope } from "./envelope.js";
import { BerthApiError, BerthTransportError } from "./errors.js";
import { withQuery } from "./route-table.js";
import type { Transport } from "./transport.js";

/**
 * The header that asks berthd for LXD's operation protocol (RFC 7240's
 * `Prefer: respond-async`): where LXD answers `202` with an operation,
 * berthd then does too, and keeps the synchronous answer the caller would
 * have had in the operation's `metadata.response`.
 */
export const PREFER_OPERATIONS = { prefer: "respond-async" } as const;

/** Seconds one `/wait` may hold the connection before the client asks again. */
const WAIT_SECONDS = 30;

/** LXD's operation status codes the client acts on (shared/api/status_code.go). */
const RUNNING = 103;
const SUCCESS = 200;

interface OperationAnswer {
  status: number;
  metadata: unknown;
  location: string | undefined;
  etag: string | undefined;
}

interface OperationRecord {
  status_code?: unknown;
  err?: unknown;
  metadata?: { response?: unknown } | null;
}

interface CarriedResponse {
  status?: unknown;
  location?: unknown;
  etag?: unknown;
  error?: unknown;
  metadata?: unknown;
}

function textOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * Follows an async (`202`) answer to its end: waits on the operation
 * unless the answer shows it finished (`GET /1.0/operations/ID/wait?timeout=N`,
 * again while it runs) and
 * answers what the synchronous request would have: the same status,
 * metadata, Location and ETag on success, the same `BerthApiError`
 * (status and text) on failure.
 */
export async function waitForOperation(
  transport: Transport,
  acceptedBody: string,
  project: string | undefined,
): Promise<OperationAnswer> {
  let accepted: { operation?: unknown; metadata?: OperationRecord | null } | null;
  try {
    accepted = JSON.parse(acceptedBody) as typeof accepted;
  } catch {
    accepted = null;
  }
  const url = textOrUndefined(accepted?.operation);
  if (url === undefined || !url.startsWith("/1.0/operations/")) {
    throw new BerthTransportError(
      `The server answered 202 without an operation URL: ${acceptedBody.slice(0, 200)}`,
    );
  }
  // An operation that finished before the 202 left (Berth's always have) needs no wait:
  // one round trip less, and no second request to a server that is shutting down.
  let operation = accepted?.metadata ?? { status_code: RUNNING };
  while (operation.status_code === RUNNING) {
    const response = await transport({
      method: "GET",
      path: withQuery(`${url}/wait`, { timeout: WAIT_SECONDS, project }),
      headers: { accept: "application/json" },
    });
    operation = decodeEnvelope(response.status, response.body) as OperationRecord;
  }
  const carried = (operation.metadata?.response ?? undefined) as CarriedResponse | undefined;
  const status = typeof carried?.status === "number" ? carried.status : undefined;
  if (operation.status_code === SUCCESS) {
    return {
      status: status ?? 200,
      metadata: carried?.metadata ?? null,
      location: textOrUndefined(carried?.location),
      etag: textOrUndefined(carried?.etag),
    };
  }
  const error = textOrUndefined(carried?.error) ?? textOrUndefined(operation.err) ?? "Operation failed";
  throw new BerthApiError(status ?? 400, error, carried?.metadata ?? null);
}
