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
 * before parsing (MAX_JSON_DEPTH).
 */
export async function readJsonBody<S extends z.ZodType>(
  source: BodySource,
  schema: S,
  optional: boolean,
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
  const result = parseBody(schema, decoded);
  if (!result.ok) throw badRequest(result.error.message);
  return result.value;
}
