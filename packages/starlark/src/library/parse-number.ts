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

const DECIMAL_FLOAT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

export type FloatParse = { ok: true; value: number } | { ok: false; error: "invalid" | "too large" };

/** Parses a float literal as Go's strconv.ParseFloat does (plus inf/nan spellings). */
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
  if (!DECIMAL_FLOAT.test(s)) return { ok: false, error: "invalid" };
  const v = Number(s);
  if (!Number.isFinite(v)) return { ok: false, error: "too large" };
  return { ok: true, value: v };
}
