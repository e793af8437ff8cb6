import type { IncomingMessage } from "node:http";
import { parseBody } from "@berth/api-types";
import type { z } from "zod";
import type { BodyBudget } from "./body-budget.js";
import { badRequest } from "./http-error.js";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "./json-depth.js";
import { readRequestText } from "./request-body.js";

/** Where a request body comes from, and how much of it is accepted. */
export interface BodySource {
  request: Request;
  /** Node's request, when served by @hono/node-server (read directly: cheaper). */
  incoming: IncomingMessage | undefined;
  maxBytes: number;
  /** Bytes all bodies being received may hold together. */
  budget: BodyBudget;
}

/**
 * Reads and validates a JSON body. Decoding and validation failures are
 * 400s that say what was wrong; unknown fields are rejected by the strict
 * api-types schemas rather than silently ignored. Nesting is bounded
 * before parsing (MAX_JSON_DEPTH). `common`, when given, answers for the
 * body's common shape what the schema would (http/common-bodies.ts), or
 * undefined to let the schema judge.
 */
export async function readJsonBody<S extends z.ZodType>(
  source: BodySource,
  schema: S,
  optional: boolean,
  common?: (decoded: unknown) => unknown,
): Promise<z.output<S>> {
  const text = await readRequestText(source.request, source.incoming, source.maxBytes, source.budget);
  let decoded: unknown;
  if (text.trim() === "") {
    if (!optional) throw badRequest("Missing request body: expected a JSON object");
    decoded = {};
  } else {
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      throw badRequest(
        `Request body nests too deeply: the limit is ${MAX_JSON_DEPTH} levels of objects and arrays`,
      );
    }
    try {
      decoded = JSON.parse(text);
    } catch (err) {
      throw badRequest(`Invalid JSON in request body: ${(err as Error).message}`);
    }
  }
  const checked = common?.(decoded);
  if (checked !== undefined) return checked as z.output<S>;
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
