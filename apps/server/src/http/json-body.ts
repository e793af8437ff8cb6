import { parseBody } from "@berth/api-types";
import type { z } from "zod";
import { badRequest } from "./http-error.js";

/**
 * Reads and validates a JSON body. Decoding and validation failures are
 * 400s that say what was wrong; unknown fields are rejected by the strict
 * api-types schemas rather than silently ignored.
 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  optional: boolean,
): Promise<z.output<S>> {
  const text = await request.text();
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
  const result = parseBody(schema, decoded);
  if (!result.ok) throw badRequest(result.error.message);
  return result.value;
}
