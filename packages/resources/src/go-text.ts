/**
 * Small helpers that render values the way Go's standard library does, so
 * error texts copied from LXD (which embed Go formatting) match literally.
 */

// The control characters Go's strconv.Quote writes with a letter escape.
const GO_NAMED_ESCAPES: Readonly<Record<string, string>> = {
  "\u0007": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
};

/** Go `strconv.Quote` / `%q` for ASCII text (control characters escaped as Go does; other characters kept). */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const named = GO_NAMED_ESCAPES[char];
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (named !== undefined) out += named;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

export type GoIntResult =
  | { readonly ok: true; readonly value: bigint }
  | { readonly ok: false; readonly message: string };

/** Go `strconv.ParseInt(text, 10, 64)`: optional sign, ASCII digits, int64 range. */
export function goParseInt(text: string): GoIntResult {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    return { ok: false, message: `strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax` };
  }
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX) {
    return { ok: false, message: `strconv.ParseInt: parsing ${goQuote(text)}: value out of range` };
  }
  return { ok: true, value };
}

/** Go `strconv.ParseUint(text, 10, 64)`: ASCII digits only (no sign), uint64 range. */
export function goParseUint(text: string): GoIntResult {
  if (!/^[0-9]+$/.test(text)) {
    return { ok: false, message: `strconv.ParseUint: parsing ${goQuote(text)}: invalid syntax` };
  }
  const value = BigInt(text);
  if (value > UINT64_MAX) {
    return { ok: false, message: `strconv.ParseUint: parsing ${goQuote(text)}: value out of range` };
  }
  return { ok: true, value };
}
