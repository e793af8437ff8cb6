/**
 * json.encode as the newest go.starlark.net writes it (lib/json): compact, dict keys sorted,
 * strings quoted by jsonQuote, and its error texts, each nested value's error prefixed with
 * where it was found ("at list index 0: in dict key "a": cannot encode ...").
 */
import { attrNames, tryGetAttr } from "../values/attrs.js";
import { StarDict } from "../values/dict.js";
import { StarEvalError } from "../values/errors.js";
import { formatFloatG } from "../values/float-format.js";
import { StarList, StarTuple } from "../values/list.js";
import { tryIterate } from "../values/ops.js";
import { quoteString } from "../values/repr.js";
import { allocString, checkStringLength, type Thread } from "../values/thread.js";
import { None, StarFloat, type StarValue, typeName, type Value } from "../values/value.js";
import { jsonQuote } from "./quote.js";

class Encoder {
  out: string[] = [];
  size = 0;
  private readonly path: StarValue[] = [];
  constructor(private readonly thread: Thread | undefined) {}

  emit(s: string): void {
    this.out.push(s);
    this.size += s.length;
    if (this.size > 1 << 16) checkStringLength(this.thread, this.size);
  }

  encode(v: Value): void {
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
    if (this.path.includes(v)) throw new StarEvalError("cycle in JSON structure");
    this.path.push(v);
    try {
      this.encodeComposite(v);
    } finally {
      this.path.pop();
    }
  }

  private encodeComposite(v: StarValue): void {
    if (v instanceof StarDict) {
      const entries = v.ht.entries();
      for (const [k] of entries) {
        if (typeof k !== "string") throw new StarEvalError(`${v.type} has ${typeName(k)} key, want string`);
      }
      entries.sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
      this.emit("{");
      entries.forEach(([k, val], i) => {
        if (i > 0) this.emit(",");
        this.emit(jsonQuote(k as string));
        this.emit(":");
        this.nested(val, `in ${v.type} key ${quoteString(k as string)}`);
      });
      this.emit("}");
      return;
    }
    if (v instanceof StarList || v instanceof StarTuple) {
      this.emit("[");
      v.elems.forEach((e, i) => {
        if (i > 0) this.emit(",");
        this.nested(e, `at ${v.type} index ${i}`);
      });
      this.emit("]");
      return;
    }
    const it = tryIterate(v);
    if (it !== undefined) {
      this.emit("[");
      try {
        let i = 0;
        for (let e = it.next(); e !== undefined; e = it.next(), i++) {
          if (i > 0) this.emit(",");
          this.nested(e, `at ${v.type} index ${i}`);
        }
      } finally {
        it.done();
      }
      this.emit("]");
      return;
    }
    // Values with attributes (struct, module, bytes with its elems method): an object of their fields.
    const names = attrNames(v);
    if (names.length > 0 || typeof v.getAttr === "function") {
      this.emit("{");
      names.forEach((name, i) => {
        let field: Value | undefined;
        try {
          field = tryGetAttr(v, name);
        } catch (e) {
          if (e instanceof StarEvalError && e.kind === "eval") {
            throw new StarEvalError(`cannot access attribute ${v.type}.${name}: ${e.message}`);
          }
          throw e;
        }
        if (field === undefined) {
          throw new StarEvalError(
            `missing attribute ${v.type}.${name} (despite ${quoteString(name)} appearing in dir()`,
          );
        }
        if (i > 0) this.emit(",");
        this.emit(jsonQuote(name));
        this.emit(":");
        this.nested(field, `in field .${name}`);
      });
      this.emit("}");
      return;
    }
    throw new StarEvalError(`cannot encode ${v.type} as JSON`);
  }

  /** Encodes a nested value, prefixing its errors with where it was found. */
  private nested(v: Value, where: string): void {
    try {
      this.encode(v);
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
    enc.encode(v);
  } catch (e) {
    if (e instanceof RangeError) throw new StarEvalError("nesting too deep");
    throw e;
  }
  const s = enc.out.join("");
  allocString(thread, s.length);
  return s;
}
