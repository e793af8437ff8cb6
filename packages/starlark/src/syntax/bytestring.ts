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
