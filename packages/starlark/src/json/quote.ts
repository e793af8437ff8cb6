/**
 * The two ways go.starlark.net's json module writes a string, and Go's quoting of a single
 * character in error messages.
 */
import { quoteString } from "../values/repr.js";
import { decodeRuneAt, runeToByteString } from "../values/strings.js";

const HEX = "0123456789abcdef";

/** Go's strconv.QuoteRune of one code point (a byte in Go's JSON errors): 'x', '\n', '\x01', '\u0080'. */
export function goQuoteRune(r: number): string {
  return quoteString(runeToByteString(r), "'");
}

/** Printable ASCII, by upstream's test (bytes 0x20 to 0x7f: DEL included). */
function isPrintableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x80) return false;
  }
  return true;
}

/**
 * A JSON string for json.encode, as upstream writes one: printable ASCII goes through
 * strconv.Quote (so DEL becomes `\x7f` and `<>&` stay as they are); any other string through
 * encoding/json's Marshal, which escapes `<`, `>`, `&`, U+2028 and U+2029 as \u sequences, writes
 * \b \f \n \r \t, other control bytes as \u00XX, and each invalid UTF-8 byte as \ufffd.
 */
export function jsonQuote(s: string): string {
  if (isPrintableAscii(s)) return quoteString(s);
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x3c && c !== 0x3e && c !== 0x26) {
        i++;
        continue;
      }
      out += s.slice(start, i);
      switch (c) {
        case 0x22:
        case 0x5c:
          out += `\\${s[i]}`;
          break;
        case 0x08:
          out += "\\b";
          break;
        case 0x0c:
          out += "\\f";
          break;
        case 0x0a:
          out += "\\n";
          break;
        case 0x0d:
          out += "\\r";
          break;
        case 0x09:
          out += "\\t";
          break;
        default:
          out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
      i++;
      start = i;
      continue;
    }
    const { rune, size } = decodeRuneAt(s, i);
    if (rune === 0xfffd && size === 1) {
      out += `${s.slice(start, i)}\\ufffd`;
      i++;
      start = i;
      continue;
    }
    if (rune === 0x2028 || rune === 0x2029) {
      out += `${s.slice(start, i)}\\u202${HEX[rune & 15]}`;
      i += size;
      start = i;
      continue;
    }
    i += size;
  }
  return `${out + s.slice(start)}"`;
}
