/**
 * Starlark strings are held as "byte strings": one UTF-16 code unit per byte of the UTF-8
 * encoding (see the package contract). The scanner needs the conversion for identifiers and
 * literals; it is a few lines, so the syntax layer keeps its own copy instead of depending on
 * the value layer.
 */
export function utf8ByteString(s: string): string {
  // Fast path: pure ASCII is identical in both forms.
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s;
  const bytes = new TextEncoder().encode(s);
  let out = "";
  for (let i = 0; i < bytes.length; i += 4096) {
    out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return out;
}

/** Appends the UTF-8 encoding of code point `cp` to `out`, in byte-string form. */
export function codePointBytes(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000) {
    return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (cp >> 18),
    0x80 | ((cp >> 12) & 0x3f),
    0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f),
  );
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's strconv.QuoteRune (%q of a rune): 'x', '\n', '\x7f', '\u200d', '😿'. */
export function quoteRune(cp: number): string {
  const simple: Record<number, string> = {
    7: "\\a",
    8: "\\b",
    9: "\\t",
    10: "\\n",
    11: "\\v",
    12: "\\f",
    13: "\\r",
  };
  if (cp === 0x27) return "'\\''";
  if (cp === 0x5c) return "'\\\\'";
  const esc = simple[cp];
  if (esc !== undefined) return `'${esc}'`;
  const ch = String.fromCodePoint(cp);
  if (cp === 0x20 || PRINTABLE.test(ch)) return `'${ch}'`;
  if (cp < 0x20 || cp === 0x7f) return `'\\x${cp.toString(16).padStart(2, "0")}'`;
  if (cp < 0x10000) return `'\\u${cp.toString(16).padStart(4, "0")}'`;
  return `'\\U${cp.toString(16).padStart(8, "0")}'`;
}
