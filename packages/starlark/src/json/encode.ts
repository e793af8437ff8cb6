/** json.encode with go.starlark.net's output (sorted dict keys, compact) and error texts. */
import { attrNames, tryGetAttr } from "../values/attrs.js";
import { StarDict } from "../values/dict.js";
import { StarEvalError } from "../values/errors.js";
import { formatFloatG } from "../values/float-format.js";
import { StarList, StarTuple } from "../values/list.js";
import { tryIterate } from "../values/ops.js";
import { quoteString } from "../values/repr.js";
import { decodeRuneAt } from "../values/strings.js";
import { checkStringLength, type Thread } from "../values/thread.js";
import {
  Builtin,
  isCallable,
  None,
  StarFloat,
  type StarValue,
  typeName,
  type Value,
} from "../values/value.js";

const HEX = "0123456789abcdef";

function u4(c: number): string {
  return `\\u${HEX[(c >> 12) & 15]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;
}

/** A JSON string literal for a byte string; invalid UTF-8 becomes U+FFFD. */
export function jsonQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x22) out += '\\"';
      else if (c === 0x5c) out += "\\\\";
      else if (c === 0x0a) out += "\\n";
      else if (c === 0x0d) out += "\\r";
      else if (c === 0x09) out += "\\t";
      else if (c < 0x20) out += u4(c);
      else out += s[i];
      i++;
      continue;
    }
    const { rune, size } = decodeRuneAt(s, i);
    if (rune === 0xfffd && size === 1) out += "\\ufffd";
    else if (rune === 0x2028 || rune === 0x2029) out += u4(rune);
    else out += s.slice(i, i + size);
    i += size;
  }
  return `${out}"`;
}

class Encoder {
  out: string[] = [];
  size = 0;
  constructor(private readonly thread: Thread | undefined) {}

  emit(s: string): void {
    this.out.push(s);
    this.size += s.length;
    if (this.size > 1 << 16) checkStringLength(this.thread, this.size);
  }

  encode(v: Value, path: StarValue[]): void {
    switch (typeof v) {
      case "boolean":
        this.emit(v ? "true" : "false");
        return;
      case "number":
      case "bigint":
        this.emit(String(v));
        return;
      case "string":
        this.emit(jsonQuote(v));
        return;
    }
    if (v === None) {
      this.emit("null");
      return;
    }
    if (v instanceof StarFloat) {
      if (!Number.isFinite(v.value)) {
        throw new StarEvalError(`cannot encode non-finite float ${formatFloatG(v.value)}`);
      }
      this.emit(formatFloatG(v.value));
      return;
    }
    if (path.includes(v)) throw new StarEvalError(`cycle in JSON structure`);
    if (v instanceof StarDict) {
      const entries = v.ht.entries();
      for (const [k] of entries) {
        if (typeof k !== "string") throw new StarEvalError(`dict has ${typeName(k)} key, want string`);
      }
      entries.sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
      path.push(v);
      this.emit("{");
      entries.forEach(([k, val], i) => {
        if (i > 0) this.emit(",");
        this.emit(jsonQuote(k as string));
        this.emit(":");
        this.nested(() => this.encode(val, path), `in dict key ${quoteString(k as string)}`);
      });
      this.emit("}");
      path.pop();
      return;
    }
    if (v instanceof StarList || v instanceof StarTuple) {
      path.push(v);
      this.emit("[");
      v.elems.forEach((e, i) => {
        if (i > 0) this.emit(",");
        this.nested(() => this.encode(e, path), `at ${v instanceof StarList ? "list" : "tuple"} index ${i}`);
      });
      this.emit("]");
      path.pop();
      return;
    }
    if (isCallable(v) || v instanceof Builtin) {
      throw new StarEvalError(`cannot encode ${typeName(v)} as JSON`);
    }
    if (typeof v.attrNames === "function") {
      const names = attrNames(v);
      path.push(v);
      this.emit("{");
      names.forEach((name, i) => {
        if (i > 0) this.emit(",");
        this.emit(jsonQuote(name));
        this.emit(":");
        const field = tryGetAttr(v, name) ?? None;
        this.nested(() => this.encode(field, path), `in field .${name}`);
      });
      this.emit("}");
      path.pop();
      return;
    }
    const it = tryIterate(v);
    if (it !== undefined) {
      path.push(v);
      this.emit("[");
      try {
        let i = 0;
        for (let e = it.next(); e !== undefined; e = it.next(), i++) {
          if (i > 0) this.emit(",");
          this.encode(e, path);
        }
      } finally {
        it.done();
      }
      this.emit("]");
      path.pop();
      return;
    }
    throw new StarEvalError(`cannot encode ${typeName(v)} as JSON`);
  }

  /** Prefixes errors from a nested value with where it was found. */
  private nested(fn: () => void, where: string): void {
    try {
      fn();
    } catch (e) {
      if (e instanceof StarEvalError && e.kind === "eval") throw new StarEvalError(`${where}: ${e.message}`);
      throw e;
    }
  }
}

/** Encodes v as compact JSON (a byte string). */
export function jsonEncode(v: Value, thread?: Thread): string {
  const enc = new Encoder(thread);
  try {
    enc.encode(v, []);
  } catch (e) {
    if (e instanceof RangeError) throw new StarEvalError("nesting too deep");
    throw e;
  }
  const s = enc.out.join("");
  checkStringLength(thread, s.length);
  return s;
}
