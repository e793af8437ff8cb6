/**
 * A byte-at-a-time JSON syntax checker with the error texts of Go's encoding/json scanner,
 * which go.starlark.net's json.indent (json.Indent) and json.decode's string unquoting
 * (json.Unmarshal) report: "invalid character 'x' after object key", "unexpected end of JSON
 * input", ... Each step classifies a byte the way Go's scanner does, so json.indent can lay out
 * its output from the same classification.
 */
import { goQuoteRune } from "./quote.js";

export enum Scan {
  Continue,
  BeginLiteral,
  BeginObject,
  ObjectKey,
  ObjectValue,
  EndObject,
  BeginArray,
  ArrayValue,
  EndArray,
  SkipSpace,
  End,
  Error,
}

enum Parse {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

/** Go's limit on nesting depth. */
const MAX_NESTING_DEPTH = 10000;

type Step = (s: JsonScanner, c: number) => Scan;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export class JsonScanner {
  step: Step = beginValue;
  endTop = false;
  readonly parseState: Parse[] = [];
  /** The syntax error, once one was met. */
  err: string | undefined;

  error(c: number, context: string): Scan {
    this.step = stateError;
    this.err = `invalid character ${goQuoteRune(c)} ${context}`;
    return Scan.Error;
  }

  /** Called at the end of input: End, or Error with `err` set. */
  eof(): Scan {
    if (this.err !== undefined) return Scan.Error;
    if (this.endTop) return Scan.End;
    this.step(this, 0x20);
    if (this.endTop) return Scan.End;
    this.err ??= "unexpected end of JSON input";
    return Scan.Error;
  }

  push(c: number, state: Parse, success: Scan): Scan {
    this.parseState.push(state);
    if (this.parseState.length <= MAX_NESTING_DEPTH) return success;
    return this.error(c, "exceeded max depth");
  }

  pop(): void {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.step = endTop;
      this.endTop = true;
    } else {
      this.step = endValue;
    }
  }
}

/** The syntax error of a whole input (bytes as a byte string), or undefined when it is valid JSON. */
export function jsonSyntaxError(s: string): string | undefined {
  const scan = new JsonScanner();
  for (let i = 0; i < s.length; i++) {
    if (scan.step(scan, s.charCodeAt(i)) === Scan.Error) return scan.err;
  }
  return scan.eof() === Scan.Error ? scan.err : undefined;
}

const beginValueOrEmpty: Step = (s, c) => {
  if (isSpace(c)) return Scan.SkipSpace;
  if (c === 0x5d) return endValue(s, c);
  return beginValue(s, c);
};

function literal(s: JsonScanner, next: Step): Scan {
  s.step = next;
  return Scan.BeginLiteral;
}

const beginValue: Step = (s, c) => {
  if (isSpace(c)) return Scan.SkipSpace;
  switch (c) {
    case 0x7b: // {
      s.step = beginStringOrEmpty;
      return s.push(c, Parse.ObjectKey, Scan.BeginObject);
    case 0x5b: // [
      s.step = beginValueOrEmpty;
      return s.push(c, Parse.ArrayValue, Scan.BeginArray);
    case 0x22: // "
      return literal(s, inString);
    case 0x2d: // -
      return literal(s, neg);
    case 0x30: // 0
      return literal(s, zero);
    case 0x74: // t
      return literal(s, TRUE);
    case 0x66: // f
      return literal(s, FALSE);
    case 0x6e: // n
      return literal(s, NULL);
  }
  if (c >= 0x31 && c <= 0x39) return literal(s, digits);
  return s.error(c, "looking for beginning of value");
};

const beginStringOrEmpty: Step = (s, c) => {
  if (isSpace(c)) return Scan.SkipSpace;
  if (c === 0x7d) {
    s.parseState[s.parseState.length - 1] = Parse.ObjectValue;
    return endValue(s, c);
  }
  return beginString(s, c);
};

const beginString: Step = (s, c) => {
  if (isSpace(c)) return Scan.SkipSpace;
  if (c === 0x22) return literal(s, inString);
  return s.error(c, "looking for beginning of object key string");
};

const endValue: Step = (s, c) => {
  const n = s.parseState.length;
  if (n === 0) {
    s.step = endTop;
    s.endTop = true;
    return endTop(s, c);
  }
  if (isSpace(c)) {
    s.step = endValue;
    return Scan.SkipSpace;
  }
  switch (s.parseState[n - 1]) {
    case Parse.ObjectKey:
      if (c === 0x3a) {
        s.parseState[n - 1] = Parse.ObjectValue;
        s.step = beginValue;
        return Scan.ObjectKey;
      }
      return s.error(c, "after object key");
    case Parse.ObjectValue:
      if (c === 0x2c) {
        s.parseState[n - 1] = Parse.ObjectKey;
        s.step = beginString;
        return Scan.ObjectValue;
      }
      if (c === 0x7d) {
        s.pop();
        return Scan.EndObject;
      }
      return s.error(c, "after object key:value pair");
    default:
      if (c === 0x2c) {
        s.step = beginValue;
        return Scan.ArrayValue;
      }
      if (c === 0x5d) {
        s.pop();
        return Scan.EndArray;
      }
      return s.error(c, "after array element");
  }
};

const endTop: Step = (s, c) => {
  if (!isSpace(c)) s.error(c, "after top-level value");
  return Scan.End;
};

const inString: Step = (s, c) => {
  if (c === 0x22) {
    s.step = endValue;
    return Scan.Continue;
  }
  if (c === 0x5c) {
    s.step = inStringEsc;
    return Scan.Continue;
  }
  if (c < 0x20) return s.error(c, "in string literal");
  return Scan.Continue;
};

const inStringEsc: Step = (s, c) => {
  switch (c) {
    case 0x62: // b
    case 0x66: // f
    case 0x6e: // n
    case 0x72: // r
    case 0x74: // t
    case 0x5c: // \
    case 0x2f: // /
    case 0x22: // "
      s.step = inString;
      return Scan.Continue;
    case 0x75: // u
      s.step = HEX_DIGITS[0] as Step;
      return Scan.Continue;
  }
  return s.error(c, "in string escape code");
};

/** The four hex digits of a \u escape, one step each. */
const HEX_DIGITS: Step[] = [0, 1, 2, 3].map(
  (k): Step =>
    (s, c) => {
      if (!isHex(c)) return s.error(c, "in \\u hexadecimal character escape");
      s.step = k === 3 ? inString : (HEX_DIGITS[k + 1] as Step);
      return Scan.Continue;
    },
);

const neg: Step = (s, c) => {
  if (c === 0x30) {
    s.step = zero;
    return Scan.Continue;
  }
  if (c >= 0x31 && c <= 0x39) {
    s.step = digits;
    return Scan.Continue;
  }
  return s.error(c, "in numeric literal");
};

const digits: Step = (s, c) => {
  if (isDigit(c)) return Scan.Continue;
  return zero(s, c);
};

const zero: Step = (s, c) => {
  if (c === 0x2e) {
    s.step = dot;
    return Scan.Continue;
  }
  if (c === 0x65 || c === 0x45) {
    s.step = exponent;
    return Scan.Continue;
  }
  return endValue(s, c);
};

const dot: Step = (s, c) => {
  if (isDigit(c)) {
    s.step = fraction;
    return Scan.Continue;
  }
  return s.error(c, "after decimal point in numeric literal");
};

const fraction: Step = (s, c) => {
  if (isDigit(c)) return Scan.Continue;
  if (c === 0x65 || c === 0x45) {
    s.step = exponent;
    return Scan.Continue;
  }
  return endValue(s, c);
};

const exponent: Step = (s, c) => {
  if (c === 0x2b || c === 0x2d) {
    s.step = exponentSign;
    return Scan.Continue;
  }
  return exponentSign(s, c);
};

const exponentSign: Step = (s, c) => {
  if (isDigit(c)) {
    s.step = exponentDigits;
    return Scan.Continue;
  }
  return s.error(c, "in exponent of numeric literal");
};

const exponentDigits: Step = (s, c) => {
  if (isDigit(c)) return Scan.Continue;
  return endValue(s, c);
};

/** The steps for the letters after the first of true/false/null, as Go's ("in literal true (expecting 'r')"). */
function keyword(word: string): Step {
  const steps: Step[] = [];
  for (let at = 1; at < word.length; at++) {
    const want = word.charCodeAt(at);
    const error = `in literal ${word} (expecting '${word[at]}')`;
    steps.push((s, c) => {
      if (c !== want) return s.error(c, error);
      s.step = at + 1 === word.length ? endValue : (steps[at] as Step);
      return Scan.Continue;
    });
  }
  return steps[0] as Step;
}
const TRUE = keyword("true");
const FALSE = keyword("false");
const NULL = keyword("null");

const stateError: Step = () => Scan.Error;
