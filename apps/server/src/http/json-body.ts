import type { IncomingMessage } from "node:http";
import { parseBody } from "@berth/api-types";
import type { z } from "zod";
import { badRequest } from "./http-error.js";
import { readRequestText } from "./request-body.js";

/** Where a request body comes from, and how much of it is accepted. */
export interface BodySource {
  request: Request;
  /** Node's request, when served by @hono/node-server (read directly: cheaper). */
  incoming: IncomingMessage | undefined;
  maxBytes: number;
}

/**
 * Reads and validates a JSON body. Decoding and validation failures are
 * 400s that say what was wrong; unknown fields are rejected by the strict
 * api-types schemas rather than silently ignored.
 */
export async function readJsonBody<S extends z.ZodType>(
  source: BodySource,
  schema: S,
  optional: boolean,
): Promise<z.output<S>> {
  const text = await readRequestText(source.request, source.incoming, source.maxBytes);
  let decoded: unknown;
  if (text.trim() === "") {
    if (!optional) throw badRequest("Missing request body: expected a JSON object");
    decoded = {};
  } else {
    try {
      decoded = JSON.parse(text);
    } catch (err) {
      throw badRequest(`Invalid JSON in request body: ${(err as Error).message}`);
    }
  }
  const result = parseBody(schema, withoutNullFields(decoded));
  if (!result.ok) throw badRequest(result.error.message);
  return result.value;
}

/**
 * LXD's Go client sends `null` for empty maps and lists (`"config": null`,
 * `"profiles": null`, `"target": null`): an object field that is `null` is
 * read as absent, i.e. empty. Nulls inside lists stay, so `["a", null]`
 * is still refused with the item's path, and a required field sent as
 * `null` is reported missing.
 */
export function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== null) out[key] = withoutNullFields(field);
  return out;
}
