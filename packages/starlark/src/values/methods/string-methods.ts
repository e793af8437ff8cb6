/** The methods of the string type, with go.starlark.net's behaviour and error texts. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import { StarList, StarTuple } from "../list.js";
import { iterableView } from "../ops.js";
import { indices } from "../sequence.js";
import { decodeRuneAt } from "../strings.js";
import { ALLOC, allocSlots, allocString, type Thread } from "../thread.js";
import {
  asBool,
  asInt64,
  asIterable,
  asString,
  asValue,
  checkPositionalArgs,
  unpackPositionalArgs,
} from "../unpack.js";
import { None, typeName, type Value } from "../value.js";
import { nameErr } from "./common.js";
import { formatString } from "./str-format.js";
import { StringCodepoints, StringElems } from "./string-iterables.js";
import {
  forEachRune,
  isCased,
  isDigit,
  isLetter,
  isLower,
  isSpace,
  isTitle,
  isUpper,
  mapRunes,
  toLower,
  toTitle,
  toUpper,
} from "./unicode.js";

/** Any byte >= 0x80 (the string is not plain ASCII). */
const NON_ASCII = /[\u0080-\uffff]/;

type Args = Value[];
type Kwargs = [string, Value][];

function recv(self: Value): string {
  return self as string;
}

const positional = checkPositionalArgs;

function argString(name: string, i: number, v: Value | undefined): string {
  if (typeof v !== "string")
    throw new StarEvalError(`${name}: for parameter ${i}: got ${typeName(v as Value)}, want string`);
  return v;
}

/** go's indices for a method, its errors prefixed with the method's name. */
function methodIndices(
  name: string,
  start: Value | undefined,
  end: Value | undefined,
  n: number,
): [number, number] {
  try {
    return indices(start, end, n);
  } catch (e) {
    throw nameErr(name, e);
  }
}

function find(
  name: string,
  s: string,
  args: Args,
  kwargs: Kwargs,
  last: boolean,
  allowError: boolean,
): Value {
  positional(name, args, kwargs, 1, 3);
  const sub = argString(name, 1, args[0]);
  if (args.length === 1) {
    // Whole-string search: no substring copy, no index clamping.
    const i = last ? s.lastIndexOf(sub) : s.indexOf(sub);
    if (i < 0 && !allowError) throw new StarEvalError(`${name}: substring not found`);
    return i;
  }
  const [start, end] = methodIndices(name, args[1], args[2], s.length);
  const hay = start < end ? s.slice(start, end) : "";
  const i = last ? hay.lastIndexOf(sub) : hay.indexOf(sub);
  if (i < 0) {
    if (allowError) return -1;
    throw new StarEvalError(`${name}: substring not found`);
  }
  return i + start;
}

function strip(name: string, s: string, args: Args, kwargs: Kwargs, left: boolean, right: boolean): Value {
  positional(name, args, kwargs, 0, 1);
  const cutset = args[0] === undefined ? "" : argString(name, 1, args[0]);
  let a = 0;
  let b = s.length;
  if (cutset === "") {
    // Unicode white space (Go's strings.TrimSpace), decoding runes at the edges.
    if (left) {
      while (a < b) {
        const c = s.charCodeAt(a);
        if (c < 0x80) {
          if (!isAsciiSpace(c)) break;
          a++;
        } else {
          const { rune, size } = decodeRuneAt(s, a);
          if (!isSpace(rune)) break;
          a += size;
        }
      }
    }
    if (right) {
      while (b > a) {
        const c = s.charCodeAt(b - 1);
        if (c < 0x80) {
          if (!isAsciiSpace(c)) break;
          b--;
        } else {
          let start = b - 1;
          while (start > a && (s.charCodeAt(start) & 0xc0) === 0x80 && b - start < 4) start--;
          const { rune, size } = decodeRuneAt(s, start);
          if (start + size !== b || !isSpace(rune)) break;
          b = start;
        }
      }
    }
    return s.slice(a, b);
  }
  const cs = cutset;
  const set = new Set<string>();
  forEachRune(cs, (_r, i, size) => {
    set.add(cs.slice(i, i + size));
    return true;
  });
  if (left) {
    while (a < b) {
      let matched = false;
      for (const piece of set) {
        if (s.startsWith(piece, a) && a + piece.length <= b) {
          a += piece.length;
          matched = true;
          break;
        }
      }
      if (!matched) break;
    }
  }
  if (right) {
    while (b > a) {
      let matched = false;
      for (const piece of set) {
        if (b - piece.length >= a && s.startsWith(piece, b - piece.length)) {
          b -= piece.length;
          matched = true;
          break;
        }
      }
      if (!matched) break;
    }
  }
  return s.slice(a, b);
}

function prefixTest(name: string, s: string, args: Args, kwargs: Kwargs, suffix: boolean): Value {
  const only = args[0];
  if (args.length === 1 && kwargs.length === 0 && typeof only === "string") {
    // The common one-string form needs no index arithmetic or substring.
    return suffix ? s.endsWith(only) : s.startsWith(only);
  }
  positional(name, args, kwargs, 1, 3);
  const [start, end] = methodIndices(name, args[1], args[2], s.length);
  const sub = end < start ? "" : s.slice(start, end);
  const x = args[0] as Value;
  const test = (p: string) => (suffix ? sub.endsWith(p) : sub.startsWith(p));
  if (typeof x === "string") return test(x);
  if (x instanceof StarTuple) {
    for (let i = 0; i < x.elems.length; i++) {
      const p = x.elems[i] as Value;
      if (typeof p !== "string") {
        throw new StarEvalError(`${name}: want string, got ${typeName(p)}, for element ${i}`);
      }
      if (test(p)) return true;
    }
    return false;
  }
  throw new StarEvalError(`${name}: got ${typeName(x)}, want string or tuple of string`);
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Byte offsets of the runes of s, and whether each is white space (for non-ASCII strings). */
function runeSpaces(s: string): { starts: number[]; space: boolean[] } {
  const starts: number[] = [];
  const space: boolean[] = [];
  forEachRune(s, (r, i) => {
    starts.push(i);
    space.push(r < 0x80 ? isAsciiSpace(r) : isSpace(r));
    return true;
  });
  starts.push(s.length);
  return { starts, space };
}

/** str.split(None)/rsplit(None) for strings with non-ASCII bytes: Unicode white space. */
function splitUnicodeSpace(s: string, maxsplit: number, fromRight: boolean): string[] {
  const { starts, space } = runeSpaces(s);
  const n = space.length;
  const out: string[] = [];
  const at = (k: number) => starts[k] as number;
  if (!fromRight) {
    let i = 0;
    for (;;) {
      while (i < n && space[i]) i++;
      if (i >= n) break;
      if (maxsplit >= 0 && out.length === maxsplit) {
        out.push(s.slice(at(i)));
        break;
      }
      let j = i;
      while (j < n && !space[j]) j++;
      out.push(s.slice(at(i), at(j)));
      i = j;
    }
    return out;
  }
  let j = n;
  for (;;) {
    while (j > 0 && space[j - 1]) j--;
    if (j <= 0) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(s.slice(0, at(j)));
      break;
    }
    let i = j;
    while (i > 0 && !space[i - 1]) i--;
    out.push(s.slice(at(i), at(j)));
    j = i;
  }
  return out.reverse();
}

/** Splits on runs of white space (Python's str.split(None, maxsplit)). */
function splitSpace(s: string, maxsplit: number, fromRight: boolean): string[] {
  if (NON_ASCII.test(s)) return splitUnicodeSpace(s, maxsplit, fromRight);
  const out: string[] = [];
  if (!fromRight) {
    let i = 0;
    const n = s.length;
    while (true) {
      while (i < n && isAsciiSpace(s.charCodeAt(i))) i++;
      if (i >= n) break;
      if (maxsplit >= 0 && out.length === maxsplit) {
        out.push(s.slice(i));
        break;
      }
      let j = i;
      while (j < n && !isAsciiSpace(s.charCodeAt(j))) j++;
      out.push(s.slice(i, j));
      i = j;
    }
    return out;
  }
  let j = s.length;
  while (true) {
    while (j > 0 && isAsciiSpace(s.charCodeAt(j - 1))) j--;
    if (j <= 0) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(s.slice(0, j));
      break;
    }
    let i = j;
    while (i > 0 && !isAsciiSpace(s.charCodeAt(i - 1))) i--;
    out.push(s.slice(i, j));
    j = i;
  }
  return out.reverse();
}

/**
 * s.split(sep) for a non-empty sep. An indexOf/slice loop, not String.prototype.split: V8's
 * native split is 2-3x slower on the sliced strings that splitting a large text produces
 * (measured on strings.star's `blob.split("\n")` then `line.split(":")`).
 */
function splitAll(s: string, sep: string): string[] {
  const out: string[] = [];
  const step = sep.length;
  let i = 0;
  for (let j = s.indexOf(sep); j >= 0; j = s.indexOf(sep, i)) {
    out.push(s.slice(i, j));
    i = j + step;
  }
  out.push(s.slice(i));
  return out;
}

function split(name: string, s: string, args: Args, kwargs: Kwargs, fromRight: boolean): Value {
  // The common call, s.split(sep), without the general unpacking.
  if (args.length === 1 && kwargs.length === 0) {
    const sep = args[0];
    if (typeof sep === "string" && sep !== "") return new StarList(splitAll(s, sep));
  }
  const [sepv, maxv] = unpackPositionalArgs(name, args, kwargs, 0, [asValue, asInt64]) as [
    Value | undefined,
    number | bigint | undefined,
  ];
  // maxsplit beyond 2^53 splits as often as there are separators.
  const maxsplit =
    maxv === undefined ? -1 : typeof maxv === "bigint" ? (maxv < 0n ? -1 : Number.MAX_SAFE_INTEGER) : maxv;
  if (sepv === undefined || sepv === None) return new StarList(splitSpace(s, maxsplit, fromRight));
  // Upstream's texts say "split" for rsplit too.
  if (typeof sepv !== "string")
    throw new StarEvalError(`split: got ${typeName(sepv)} for separator, want string`);
  const sep = sepv;
  if (sep === "") throw new StarEvalError("split: empty separator");
  if (maxsplit < 0) return new StarList(splitAll(s, sep));
  const out: string[] = [];
  if (!fromRight) {
    let i = 0;
    while (out.length < maxsplit) {
      const j = s.indexOf(sep, i);
      if (j < 0) break;
      out.push(s.slice(i, j));
      i = j + sep.length;
    }
    out.push(s.slice(i));
    return new StarList(out);
  }
  let j = s.length;
  while (out.length < maxsplit) {
    const i = s.lastIndexOf(sep, j - sep.length);
    if (i < 0 || j - sep.length < 0) break;
    out.push(s.slice(i + sep.length, j));
    j = i;
  }
  out.push(s.slice(0, j));
  return new StarList(out.reverse());
}

function partition(name: string, s: string, args: Args, kwargs: Kwargs, last: boolean): Value {
  positional(name, args, kwargs, 1, 1);
  const sep = argString(name, 1, args[0]);
  if (sep === "") throw new StarEvalError(`${name}: empty separator`);
  const i = last ? s.lastIndexOf(sep) : s.indexOf(sep);
  if (i < 0) return new StarTuple(last ? ["", "", s] : [s, "", ""]);
  return new StarTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
}

function runePredicate(
  name: string,
  args: Args,
  kwargs: Kwargs,
  s: string,
  pred: (r: number) => boolean,
): Value {
  positional(name, args, kwargs, 0, 0);
  if (s === "") return false;
  let ok = true;
  forEachRune(s, (r) => {
    ok = pred(r);
    return ok;
  });
  return ok;
}

function hasCased(s: string): boolean {
  let found = false;
  forEachRune(s, (r) => {
    found = isCased(r);
    return !found;
  });
  return found;
}

// ASCII strings (the common case) use the native, allocation-light conversions.
const lower = (s: string) => (NON_ASCII.test(s) ? mapRunes(s, toLower) : s.toLowerCase());
const upper = (s: string) => (NON_ASCII.test(s) ? mapRunes(s, toUpper) : s.toUpperCase());

const methods: Record<string, MethodFn> = {
  capitalize: (t, self, args, kwargs) => {
    positional("capitalize", args, kwargs, 0, 0);
    return charged(
      t,
      mapRunes(recv(self), (r, i) => (i === 0 ? toTitle(r) : toLower(r))),
    );
  },
  codepoint_ords: (_t, self, args, kwargs) => {
    positional("codepoint_ords", args, kwargs, 0, 0);
    return new StringCodepoints(recv(self), true);
  },
  codepoints: (_t, self, args, kwargs) => {
    positional("codepoints", args, kwargs, 0, 0);
    return new StringCodepoints(recv(self), false);
  },
  count: (_t, self, args, kwargs) => {
    positional("count", args, kwargs, 1, 3);
    const s = recv(self);
    const sub = argString("count", 1, args[0]);
    const [start, end] = methodIndices("count", args[1], args[2], s.length);
    const hay = start < end ? s.slice(start, end) : "";
    if (sub === "") return runeCountOf(hay) + 1;
    let n = 0;
    for (let i = hay.indexOf(sub); i >= 0; i = hay.indexOf(sub, i + sub.length)) n++;
    return n;
  },
  elem_ords: (_t, self, args, kwargs) => {
    positional("elem_ords", args, kwargs, 0, 0);
    return new StringElems(recv(self), true);
  },
  elems: (_t, self, args, kwargs) => {
    positional("elems", args, kwargs, 0, 0);
    return new StringElems(recv(self), false);
  },
  endswith: (_t, self, args, kwargs) => prefixTest("endswith", recv(self), args, kwargs, true),
  find: (_t, self, args, kwargs) => find("find", recv(self), args, kwargs, false, true),
  format: (t, self, args, kwargs) => formatString(t, recv(self), args, kwargs), // charges its result
  index: (_t, self, args, kwargs) => find("index", recv(self), args, kwargs, false, false),
  isalnum: (_t, self, args, kwargs) =>
    runePredicate("isalnum", args, kwargs, recv(self), (r) => isLetter(r) || isDigit(r)),
  isalpha: (_t, self, args, kwargs) => runePredicate("isalpha", args, kwargs, recv(self), isLetter),
  isdigit: (_t, self, args, kwargs) => runePredicate("isdigit", args, kwargs, recv(self), isDigit),
  islower: (_t, self, args, kwargs) => {
    positional("islower", args, kwargs, 0, 0);
    const s = recv(self);
    return hasCased(s) && s === lower(s);
  },
  isspace: (_t, self, args, kwargs) => runePredicate("isspace", args, kwargs, recv(self), isSpace),
  istitle: (_t, self, args, kwargs) => {
    positional("istitle", args, kwargs, 0, 0);
    let cased = false;
    let prevCased = false;
    let ok = true;
    forEachRune(recv(self), (r) => {
      if ((r >= 0x41 && r <= 0x5a) || isTitle(r)) {
        if (prevCased) ok = false;
        prevCased = true;
        cased = true;
      } else if (isLower(r)) {
        if (!prevCased) ok = false;
        prevCased = true;
        cased = true;
      } else if (isUpper(r)) {
        ok = false;
      } else {
        prevCased = false;
      }
      return ok;
    });
    return ok && cased;
  },
  isupper: (_t, self, args, kwargs) => {
    positional("isupper", args, kwargs, 0, 0);
    const s = recv(self);
    return hasCased(s) && s === upper(s);
  },
  join: (t, self, args, kwargs) => {
    const [it] = unpackPositionalArgs("join", args, kwargs, 1, [asIterable]) as [Value];
    const sep = recv(self);
    const elems = iterableView(it, t) ?? [];
    let total = 0;
    for (const e of elems) {
      if (typeof e !== "string") throw new StarEvalError(`join: in list, want string, got ${typeName(e)}`);
      total += e.length + sep.length;
    }
    allocString(t, total);
    return elems.join(sep);
  },
  lower: (t, self, args, kwargs) => {
    positional("lower", args, kwargs, 0, 0);
    return charged(t, lower(recv(self)));
  },
  lstrip: (t, self, args, kwargs) => charged(t, strip("lstrip", recv(self), args, kwargs, true, false)),
  partition: (t, self, args, kwargs) =>
    chargedTuple(t, partition("partition", recv(self), args, kwargs, false)),
  removeprefix: (t, self, args, kwargs) => {
    positional("removeprefix", args, kwargs, 1, 1);
    const s = recv(self);
    const p = argString("removeprefix", 1, args[0]);
    return charged(t, s.startsWith(p) ? s.slice(p.length) : s);
  },
  removesuffix: (t, self, args, kwargs) => {
    positional("removesuffix", args, kwargs, 1, 1);
    const s = recv(self);
    const p = argString("removesuffix", 1, args[0]);
    return charged(t, p !== "" && s.endsWith(p) ? s.slice(0, s.length - p.length) : s);
  },
  replace: (t, self, args, kwargs) => replace(t, recv(self), args, kwargs),
  rfind: (_t, self, args, kwargs) => find("rfind", recv(self), args, kwargs, true, true),
  rindex: (_t, self, args, kwargs) => find("rindex", recv(self), args, kwargs, true, false),
  rpartition: (t, self, args, kwargs) =>
    chargedTuple(t, partition("rpartition", recv(self), args, kwargs, true)),
  rsplit: (t, self, args, kwargs) => chargedList(t, split("rsplit", recv(self), args, kwargs, true)),
  rstrip: (t, self, args, kwargs) => charged(t, strip("rstrip", recv(self), args, kwargs, false, true)),
  split: (t, self, args, kwargs) => chargedList(t, split("split", recv(self), args, kwargs, false)),
  splitlines: (t, self, args, kwargs) => {
    const [kv] = unpackPositionalArgs("splitlines", args, kwargs, 0, [asBool]) as [boolean | undefined];
    const keep = kv === true;
    const s = recv(self);
    const out: string[] = [];
    let i = 0;
    while (i < s.length) {
      const j = s.indexOf("\n", i);
      if (j < 0) {
        out.push(s.slice(i));
        break;
      }
      out.push(keep ? s.slice(i, j + 1) : s.slice(i, j));
      i = j + 1;
    }
    return chargedList(t, new StarList(out));
  },
  startswith: (_t, self, args, kwargs) => prefixTest("startswith", recv(self), args, kwargs, false),
  strip: (t, self, args, kwargs) => charged(t, strip("strip", recv(self), args, kwargs, true, true)),
  title: (t, self, args, kwargs) => {
    positional("title", args, kwargs, 0, 0);
    let prevCased = false;
    return charged(
      t,
      mapRunes(recv(self), (r) => {
        const m = prevCased ? toLower(r) : toTitle(r);
        prevCased = isCased(m);
        return m;
      }),
    );
  },
  upper: (t, self, args, kwargs) => {
    positional("upper", args, kwargs, 0, 0);
    return charged(t, upper(recv(self)));
  },
};

/** Charges a string result to the allocation budget. */
function charged(t: Thread, s: Value): Value {
  allocString(t, (s as string).length);
  return s;
}

/** Charges a list of strings (split results): its slots and the strings' bytes. */
function chargedList(t: Thread, l: Value): Value {
  const elems = (l as StarList).elems;
  allocSlots(t, elems.length);
  if (!t.budgeted) return l; // no budget: the strings' sizes are not worth a loop
  let bytes = 0;
  for (const e of elems) bytes += ALLOC.header + (e as string).length;
  t.alloc(bytes);
  return l;
}

/** Charges partition's (before, sep, after) tuple. */
function chargedTuple(t: Thread, tuple: Value): Value {
  allocSlots(t, 3);
  for (const e of (tuple as StarTuple).elems) allocString(t, (e as string).length);
  return tuple;
}

function runeCountOf(s: string): number {
  let n = 0;
  forEachRune(s, () => {
    n++;
    return true;
  });
  return n;
}

function replace(t: Thread, s: string, args: Args, kwargs: Kwargs): Value {
  const [old, nw, cv] = unpackPositionalArgs("replace", args, kwargs, 2, [asString, asString, asInt64]) as [
    string,
    string,
    number | bigint | undefined,
  ];
  // A count beyond 2^53 replaces every occurrence, as does a negative one.
  const count =
    cv === undefined ? -1 : typeof cv === "bigint" ? (cv < 0n ? -1 : Number.MAX_SAFE_INTEGER) : cv;
  if (count === 0 || old === nw) return s; // Go's strings.Replace returns s itself: nothing is allocated
  const occurrences = old === "" ? runeCountOf(s) + 1 : countOccurrences(s, old);
  if (occurrences === 0) return s;
  const n = count < 0 ? occurrences : Math.min(count, occurrences);
  // The result's size is known before it is built: checked and charged first.
  allocString(t, s.length + n * (nw.length - old.length));
  if (old === "") {
    // Go inserts `new` before each rune and at the end (up to count times).
    let out = "";
    let done = 0;
    forEachRune(s, (_r, at, size) => {
      if (count < 0 || done < count) {
        out += nw;
        done++;
      }
      out += s.slice(at, at + size);
      return true;
    });
    if (count < 0 || done < count) out += nw;
    return out;
  }
  if (n === occurrences) {
    if (old.length > 1) {
      // V8's replaceAll is about twice as fast as split/join here, and builds no array of pieces;
      // `$` in a replacement string is a pattern to it, so each is doubled.
      return s.replaceAll(old, nw.includes("$") ? nw.replaceAll("$", "$$$$") : nw);
    }
    if (nw.length === 1 && s.length >= REPLACE_BYTE_MIN) return replaceByte(s, old, nw);
    // For one-byte matches, split/join: replaceAll was 5x slower on a megabyte of them.
    return s.split(old).join(nw);
  }
  let out = "";
  let i = 0;
  for (let k = 0; k < n; k++) {
    const j = s.indexOf(old, i);
    out += s.slice(i, j) + nw;
    i = j + old.length;
  }
  return out + s.slice(i);
}

/** From this length on, one byte replaced by another everywhere is done by replaceByte. */
const REPLACE_BYTE_MIN = 4096;
const FROM_CHAR_CODE_CHUNK = 8192;

/**
 * Every `old` byte of s replaced by `nw` (both one byte), through an array of char codes: ~4x
 * faster than split/join on a megabyte (which makes an array of a million pieces).
 */
function replaceByte(s: string, old: string, nw: string): string {
  const from = old.charCodeAt(0);
  const to = nw.charCodeAt(0);
  const n = s.length;
  const codes = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    codes[i] = c === from ? to : c;
  }
  let out = "";
  for (let i = 0; i < n; i += FROM_CHAR_CODE_CHUNK) {
    out += String.fromCharCode.apply(
      null,
      codes.subarray(i, Math.min(n, i + FROM_CHAR_CODE_CHUNK)) as unknown as number[],
    );
  }
  return out;
}

/** Non-overlapping occurrences of a non-empty `sub` in s (a byte loop for one-byte subs). */
function countOccurrences(s: string, sub: string): number {
  let n = 0;
  if (sub.length === 1) {
    const c = sub.charCodeAt(0);
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === c) n++;
    return n;
  }
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

defineMethods("string", methods);
