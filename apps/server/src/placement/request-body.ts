/**
 * Placement's checks on a request body, in its order and with its texts:
 * a JSON content type is required (415, or 400 when a body came without
 * any content type), then the body must parse (400 `Malformed JSON: ...`).
 */
import { badRequest, PlacementError } from "./placement-error.js";

export function requireJsonContentType(contentType: string | undefined, hasBody: boolean): void {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType === undefined || mediaType === "") {
    if (hasBody) throw badRequest("content-type header required when content-length is set");
    throw new PlacementError(415, "The media type None is not supported, use application/json");
  }
  if (mediaType !== "application/json") {
    throw new PlacementError(415, `The media type ${mediaType} is not supported, use application/json`);
  }
}

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Malformed JSON: ${(error as Error).message}`);
  }
}
