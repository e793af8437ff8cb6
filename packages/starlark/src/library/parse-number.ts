/** int(string, base) and float(string) parsing with go.starlark.net's rules. */
import { normInt } from "../values/value.js";

/** Digit value of a character code in bases up to 36, or 99. */
function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41 + 10;
  return 99;
}

/** Parses s in `base` (0 = detect from prefix); undefined when invalid. */
export function parseIntLiteral(s: string, base: number): number | bigint | undefined {
  let neg = false;
  if (s !== "") {
    if (s[0] === "+") s = s.slice(1);
    else if (s[0] === "-") {
      neg = true;
      s = s.slice(1);
    }
  }
  if (s.length > 1 && s[0] === "0") {
    let prefix = 0;
    if (s.length > 2) {
      const p = s[1];
      if (p === "o" || p === "O") prefix = 8;
      else if (p === "x" || p === "X") prefix = 16;
      else if (p === "b" || p === "B") prefix = 2;
    }
    if (prefix !== 0) {
      if (base === 0 || base === prefix) {
        base = prefix;
        s = s.slice(2);
      }
    } else if (base === 0) {
      // With base detection, a leading zero means the whole literal must be zeros.
      for (let i = 1; i < s.length; i++) if (s[i] !== "0") return undefined;
      return 0;
    }
  }
  if (base === 0) base = 10;
  if (s === "") return undefined;
  let small = 0;
  let big: bigint | undefined;
  const bigBase = BigInt(base);
  for (let i = 0; i < s.length; i++) {
    const d = digitValue(s.charCodeAt(i));
    if (d >= base) return undefined;
    if (big === undefined) {
      const next = small * base + d;
      if (Number.isSafeInteger(next)) {
        small = next;
        continue;
      }
      big = BigInt(small);
    }
    big = big * bigBase + BigInt(d);
  }
  if (big === undefined) return neg ? -small || 0 : small;
  return normInt(neg ? -big : big);
}

export type FloatParse = { ok: true; value: number } | { ok: false; error: "invalid" | "too large" };

/**
 * Parses a float as Go's strconv.ParseFloat(s, 64) does, which go.starlark.net's float() uses:
 * decimal or hexadecimal (`0x1.8p3`, exponent required) mantissas, `_` between digits, and the
 * spellings inf/infinity/nan in any case with an optional sign. Overflow is "too large";
 * underflow rounds to zero.
 */
export function parseFloatLiteral(s: string): FloatParse {
  switch (s.toLowerCase()) {
    case "inf":
    case "+inf":
    case "infinity":
    case "+infinity":
      return { ok: true, value: Number.POSITIVE_INFINITY };
    case "-inf":
    case "-infinity":
      return { ok: true, value: Number.NEGATIVE_INFINITY };
    case "nan":
    case "+nan":
    case "-nan":
      return { ok: true, value: Number.NaN };
  }
  const m = FLOAT_SYNTAX.exec(s);
  if (m === null || !underscoresOk(s)) return { ok: false, error: "invalid" };
  const [, sign, hexPrefix, hexInt, hexFrac, decInt, decFrac, exp] = m;
  const intDigits = hexInt ?? decInt ?? "";
  const fracDigits = hexFrac ?? decFrac ?? "";
  const plain = (x: string) => x.replace(/_/g, "");
  if (plain(intDigits) === "" && plain(fracDigits) === "") return { ok: false, error: "invalid" };
  let v: number;
  if (hexPrefix !== undefined) {
    if (exp === undefined || !/^[pP]/.test(exp)) return { ok: false, error: "invalid" };
    const digits = plain(intDigits) + plain(fracDigits);
    const e = Number(exp.slice(1)) - 4 * plain(fracDigits).length;
    v = scaleByPowerOfTwo(digits === "" ? 0n : BigInt(`0x${digits}`), e);
  } else {
    if (exp !== undefined && /^[pP]/.test(exp)) return { ok: false, error: "invalid" };
    v = Number(`${plain(intDigits)}.${plain(fracDigits)}0${exp ?? ""}`);
  }
  if (sign === "-") v = -v;
  if (!Number.isFinite(v)) return { ok: false, error: "too large" };
  return { ok: true, value: v };
}

/** sign, 0x, integer digits, fraction digits, exponent (e/E decimal, p/P binary). */
const FLOAT_SYNTAX =
  /^([+-])?(?:(0[xX])([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?|([0-9_]*)(?:\.([0-9_]*))?)([eEpP][+-]?[0-9_]+)?$/;

/** Go's underscoreOK: `_` only between digits, or between a base prefix and a digit. */
function underscoresOk(s: string): boolean {
  let i = 0;
  if (s[0] === "+" || s[0] === "-") i = 1;
  let saw = "^";
  let hex = false;
  if (s.length - i >= 2 && s[i] === "0" && /[bBoOxX]/.test(s[i + 1] ?? "")) {
    hex = s[i + 1] === "x" || s[i + 1] === "X";
    saw = "0";
    i += 2;
  }
  for (; i < s.length; i++) {
    const c = s[i] as string;
    if ((c >= "0" && c <= "9") || (hex && /[a-fA-F]/.test(c))) {
      saw = "0";
      continue;
    }
    if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}

/** m * 2^e rounded once to the nearest double (ties to even), as Go's hexadecimal parsing. */
function scaleByPowerOfTwo(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const bits = m.toString(2).length;
  // Keep 64 significant bits plus a sticky bit so that Number() rounds exactly once.
  if (bits > 64) {
    const drop = bits - 64;
    const sticky = (m & ((1n << BigInt(drop)) - 1n)) !== 0n ? 1n : 0n;
    m = (m >> BigInt(drop)) | sticky;
    e += drop;
  }
  // Numbers below 2^64 convert exactly enough: Number(m) rounds to 53 bits, then the power of
  // two is applied in steps that stay exact until the result under- or overflows.
  let v = Number(m);
  if (e > 0) for (; e > 0; e -= Math.min(e, 1000)) v *= 2 ** Math.min(e, 1000);
  else for (; e < 0; e += Math.min(-e, 1000)) v /= 2 ** Math.min(-e, 1000);
  return v;
}
