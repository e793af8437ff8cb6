/**
 * Deepest nesting a request body may have. Berth's deepest real body (a
 * member's resources: `cpu.sockets[].cores[].threads[]`) is under 10
 * levels; 64 leaves room for scriptlet-visible config while keeping
 * recursive validators and clones far from the JS stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * How deep the JSON text nests (objects and arrays), counted on the text
 * before it is parsed so a deep body costs one linear scan and nothing
 * recursive. Brackets inside strings do not count. Stops counting once
 * `limit` is passed. Malformed text is JSON.parse's to report.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
      continue;
    }
    if (ch === QUOTE) inString = true;
    else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      depth++;
      if (depth > limit) return true;
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) depth--;
  }
  return false;
}
