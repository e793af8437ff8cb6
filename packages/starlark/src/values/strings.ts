/**
 * Byte-string helpers. A Starlark string is a JS string whose code units are the
 * bytes (0..255) of its UTF-8 encoding; see notes/starlark-contract.md.
 */

const textEncoder = new TextEncoder();
const latin1Decoder = new TextDecoder("latin1");

/** True when every code unit is ASCII, so both forms coincide. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Normal JS string -> byte string (UTF-8 bytes, one per code unit). */
export function encodeUtf8ToByteString(js: string): string {
  if (isAscii(js)) return js;
  return bytesToByteString(textEncoder.encode(js));
}

/** Uint8Array -> byte string. */
export function bytesToByteString(bytes: Uint8Array): string {
  // TextDecoder("latin1") is windows-1252 per the Encoding spec, which remaps 0x80..0x9f,
  // so build the string from code units directly.
  let out = "";
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}
void latin1Decoder;

/** Byte string -> Uint8Array. */
export function byteStringToBytes(bs: string): Uint8Array {
  const out = new Uint8Array(bs.length);
  for (let i = 0; i < bs.length; i++) out[i] = bs.charCodeAt(i);
  return out;
}

/** Byte string -> normal JS string; invalid UTF-8 becomes U+FFFD. */
export function decodeByteStringToUtf8(bs: string): string {
  if (isAscii(bs)) return bs;
  return new TextDecoder("utf-8").decode(byteStringToBytes(bs));
}

/**
 * Decodes one UTF-8 sequence at byte offset i. Returns the code point and its byte
 * length; invalid bytes decode as U+FFFD of length 1 (Go's utf8.DecodeRuneInString).
 */
export function decodeRuneAt(s: string, i: number): { rune: number; size: number } {
  const b0 = s.charCodeAt(i);
  if (b0 < 0x80) return { rune: b0, size: 1 };
  const n = s.length;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const b1 = i + 1 < n ? s.charCodeAt(i + 1) : 0;
    if ((b1 & 0xc0) === 0x80) return { rune: ((b0 & 0x1f) << 6) | (b1 & 0x3f), size: 2 };
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    const b1 = i + 1 < n ? s.charCodeAt(i + 1) : 0;
    const b2 = i + 2 < n ? s.charCodeAt(i + 2) : 0;
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    if (b1 >= lo && b1 <= hi && (b2 & 0xc0) === 0x80) {
      return { rune: ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f), size: 3 };
    }
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    const b1 = i + 1 < n ? s.charCodeAt(i + 1) : 0;
    const b2 = i + 2 < n ? s.charCodeAt(i + 2) : 0;
    const b3 = i + 3 < n ? s.charCodeAt(i + 3) : 0;
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    if (b1 >= lo && b1 <= hi && (b2 & 0xc0) === 0x80 && (b3 & 0xc0) === 0x80) {
      return {
        rune: ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f),
        size: 4,
      };
    }
  }
  return { rune: 0xfffd, size: 1 };
}

/**
 * s with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD, one each, as
 * Go's `for _, r := range s` decodes (bytes(string), str(bytes)). Valid strings are returned as they are.
 */
export function utf8Transcode(s: string): string {
  let i = 0;
  for (; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) break;
  }
  if (i === s.length) return s;
  let out = s.slice(0, i);
  let valid = true;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out += s[i];
      i++;
      continue;
    }
    const { rune, size } = decodeRuneAt(s, i);
    if (rune === 0xfffd && size === 1) {
      out += "\xef\xbf\xbd";
      valid = false;
    } else {
      out += s.slice(i, i + size);
    }
    i += size;
  }
  return valid ? s : out;
}

/** 32-bit FNV-1a of the bytes of s (go.starlark.net's hash(bytes)), as a non-negative number. */
export function fnv32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Encodes one code point as a UTF-8 byte string (surrogates and out-of-range -> U+FFFD). */
export function runeToByteString(r: number): string {
  if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) r = 0xfffd;
  if (r < 0x80) return String.fromCharCode(r);
  if (r < 0x800) return String.fromCharCode(0xc0 | (r >> 6), 0x80 | (r & 0x3f));
  if (r < 0x10000) {
    return String.fromCharCode(0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (r >> 18),
    0x80 | ((r >> 12) & 0x3f),
    0x80 | ((r >> 6) & 0x3f),
    0x80 | (r & 0x3f),
  );
}

/** Code points of a byte string (invalid bytes -> U+FFFD each). */
export function runes(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    const { rune, size } = decodeRuneAt(s, i);
    out.push(rune);
    i += size;
  }
  return out;
}

/** Number of code points. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    i += s.charCodeAt(i) < 0x80 ? 1 : decodeRuneAt(s, i).size;
    n++;
  }
  return n;
}

/** Written by flatten so that the optimizing compiler cannot drop its read as unused. */
let _flattenSink = 0;

/**
 * Returns s, first making V8 store it as one contiguous sequence. A string built by `+` is a
 * tree of concatenation nodes (for results of 13+ characters); formatting results are usually
 * kept (list elements, dict keys), and building then joining 100,000 formatted lines took
 * about twice the CPU time with the trees kept (copied by every young-generation collection
 * and flattened again at each use) as with each line flattened once.
 * Reading a character flattens the tree once. Not for `+` itself: repeated `s += x` relies on
 * the trees to stay linear.
 */
export function flatten(s: string): string {
  if (s.length >= 13) _flattenSink ^= s.charCodeAt(0);
  return s;
}
