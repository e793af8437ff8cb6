/**
 * Per-rune Unicode helpers matching Go's unicode package (Unicode 15, Go 1.25, which the newest
 * go.starlark.net is built with). JS's regexps and case conversions do most of the work; the
 * tables below hold where they differ: JS converts case with the full (SpecialCasing) mappings
 * and knows Unicode 16, Go uses the simple one-rune mappings of Unicode 15.
 */
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
/**
 * go.starlark.net's isCasedRune: ASCII letters, or runes with a case-folding partner
 * (unicode.SimpleFold(r) != r). That is exactly the runes with a simple lower or upper case
 * mapping, except ß (folds with ẞ) and İ, ı (no fold partner).
 */
export function isCased(r: number): boolean {
  if (r < 0x80) return (r | 0x20) >= 0x61 && (r | 0x20) <= 0x7a;
  if (r === 0xdf) return true;
  if (r === 0x130 || r === 0x131) return false;
  return toLower(r) !== r || toUpper(r) !== r;
}

/** Case mappings added after Unicode 15 (JS knows them, Go 1.25's Unicode 15 does not). */
function newAfterUnicode15(r: number): boolean {
  return (
    r === 0x19b ||
    r === 0x264 ||
    r === 0x1c89 ||
    r === 0x1c8a ||
    (r >= 0xa7cb && r <= 0xa7cf) ||
    (r >= 0xa7da && r <= 0xa7dc) ||
    (r >= 0x10d50 && r <= 0x10d85) ||
    (r >= 0x16ea0 && r <= 0x16ed3)
  );
}

/** Greek with ypogegrammeni: simple upper/title case is the prosgegrammeni form (JS gives two runes). */
function greekIotaSubscriptUpper(r: number): number | undefined {
  if ((r >= 0x1f80 && r <= 0x1f87) || (r >= 0x1f90 && r <= 0x1f97) || (r >= 0x1fa0 && r <= 0x1fa7))
    return r + 8;
  if (r === 0x1fb3 || r === 0x1fc3 || r === 0x1ff3) return r + 9;
  return undefined;
}

/** Simple (one rune to one rune) case mappings, as Go's unicode.ToLower/ToUpper. */
function simpleMap(r: number, upper: boolean): number {
  if (r < 0x80) {
    if (upper) return r >= 0x61 && r <= 0x7a ? r - 32 : r;
    return r >= 0x41 && r <= 0x5a ? r + 32 : r;
  }
  if (newAfterUnicode15(r)) return r;
  if (upper) {
    const g = greekIotaSubscriptUpper(r);
    if (g !== undefined) return g;
  } else if (r === 0x130) {
    return 0x69; // İ: JS's full mapping is "i̇" (two runes); the simple one is "i"
  }
  const m = upper ? cp(r).toUpperCase() : cp(r).toLowerCase();
  const c = m.codePointAt(0) ?? r;
  if (m.length !== String.fromCodePoint(c).length || newAfterUnicode15(c)) return r;
  return c;
}
export const toLower = (r: number) => simpleMap(r, false);
export const toUpper = (r: number) => simpleMap(r, true);

/**
 * Go's unicode.ToTitle: like ToUpper except for the Latin digraphs DŽ/LJ/NJ/DZ, which have a
 * title-case form of their own, and Georgian Mkhedruli letters, which are their own title case.
 */
export function toTitle(r: number): number {
  if (r >= 0x1c4 && r <= 0x1cc) return 0x1c5 + 3 * Math.floor((r - 0x1c4) / 3);
  if (r >= 0x1f1 && r <= 0x1f3) return 0x1f2;
  if ((r >= 0x10d0 && r <= 0x10fa) || (r >= 0x10fd && r <= 0x10ff)) return r;
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
