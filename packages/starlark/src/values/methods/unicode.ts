/** Per-rune Unicode helpers approximating Go's unicode package with JS regexps. */
import { decodeRuneAt, runeToByteString } from "../strings.js";

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const TITLE = /\p{Lt}/u;
const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

const cp = (r: number) => String.fromCodePoint(r);
export const isLetter = (r: number) =>
  r < 0x80 ? (r | 0x20) >= 0x61 && (r | 0x20) <= 0x7a : LETTER.test(cp(r));
export const isDigit = (r: number) => (r < 0x80 ? r >= 0x30 && r <= 0x39 : DIGIT.test(cp(r)));
export const isLower = (r: number) => (r < 0x80 ? r >= 0x61 && r <= 0x7a : LOWER.test(cp(r)));
export const isUpper = (r: number) => (r < 0x80 ? r >= 0x41 && r <= 0x5a : UPPER.test(cp(r)));
export const isTitle = (r: number) => r >= 0x80 && TITLE.test(cp(r));
export const isSpace = (r: number) => SPACE.test(cp(r));
export const isCased = (r: number) => isLower(r) || isUpper(r) || isTitle(r);

/** Simple (one rune to one rune) case mappings, as Go's unicode.ToLower/ToUpper. */
function simpleMap(r: number, upper: boolean): number {
  if (r < 0x80) {
    if (upper) return r >= 0x61 && r <= 0x7a ? r - 32 : r;
    return r >= 0x41 && r <= 0x5a ? r + 32 : r;
  }
  const m = upper ? cp(r).toUpperCase() : cp(r).toLowerCase();
  const c = m.codePointAt(0) ?? r;
  return m.length === String.fromCodePoint(c).length ? c : r;
}
export const toLower = (r: number) => simpleMap(r, false);
export const toUpper = (r: number) => simpleMap(r, true);

/** Go's unicode.ToTitle: like ToUpper except for the Latin digraphs DŽ/LJ/NJ/DZ. */
export function toTitle(r: number): number {
  if (r >= 0x1c4 && r <= 0x1cc) return 0x1c5 + 3 * Math.floor((r - 0x1c4) / 3);
  if (r >= 0x1f1 && r <= 0x1f3) return 0x1f2;
  return toUpper(r);
}

/** Applies fn to each rune of a byte string (ASCII fast path when fn is ASCII-closed). */
export function mapRunes(s: string, fn: (r: number, index: number) => number): string {
  // Collect code units and convert in chunks: per-character string concatenation
  // builds deep ropes and dominated GC time on large strings.
  const units: number[] = [];
  let out = "";
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    let m: number;
    if (c < 0x80) {
      m = fn(c, n++);
      i++;
    } else {
      const { rune, size } = decodeRuneAt(s, i);
      m = fn(rune, n++);
      i += size;
    }
    if (m < 0x80) units.push(m);
    else {
      const enc = runeToByteString(m);
      for (let k = 0; k < enc.length; k++) units.push(enc.charCodeAt(k));
    }
    if (units.length >= 8192) {
      out += String.fromCharCode.apply(null, units);
      units.length = 0;
    }
  }
  return out + String.fromCharCode.apply(null, units);
}

/** Iterates the runes of a byte string. */
export function forEachRune(
  s: string,
  fn: (r: number, i: number, size: number) => boolean | undefined,
): void {
  for (let i = 0; i < s.length; ) {
    const { rune, size } = decodeRuneAt(s, i);
    if (fn(rune, i, size) === false) return;
    i += size;
  }
}
