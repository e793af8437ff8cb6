/**
 * Insertion-ordered hash table behind dict and set.
 *
 * Keys map to a JS primitive ("prim") so a plain JS Map does the hashing:
 * strings, ints, bools and None are their own prim; a float maps to the number
 * (so 1.0 and 1 collide, as Starlark requires); a tuple of such values maps to a
 * canonical string starting with U+0100 (no byte string can contain it). Identity-
 * compared objects are their own prim. Anything else (host values with custom
 * equality, tuples holding them) uses "U+0101<hash>#<probe>" slots compared with
 * `equals`. JS Map keeps insertion order and appends re-inserted keys, which is
 * exactly Starlark's dict order.
 */
import { StarEvalError } from "./errors.js";
import { valueHooks } from "./hooks.js";
import { StarTuple } from "./list.js";
import { checkCollectionSize, type Thread } from "./thread.js";
import { None, StarFloat, type Value } from "./value.js";

type Prim = unknown;

const TUPLE_TAG = "\u0100";
const MAX_ENCODED_KEY = 4096;
const PROBE_TAG = "\u0101";

/** Canonical encoding of a hashable structural value, or undefined if it needs probing. */
function encode(v: Value): string | undefined {
  switch (typeof v) {
    case "string":
      return `s${v.length}:${v}`;
    case "number":
      return `i${v}`;
    case "bigint":
      return `i${v}`;
    case "boolean":
      return v ? "T" : "F";
    default:
      if (v === None) return "N";
      if (v instanceof StarFloat) {
        const f = v.value;
        if (Number.isInteger(f)) return Number.isSafeInteger(f) ? `i${f}` : `i${BigInt(f)}`;
        return `f${f}`;
      }
      if (v instanceof StarTuple) {
        let out = "(";
        for (const e of v.elems) {
          const enc = encode(e);
          // Huge (or DAG-shaped) tuples use hash probing instead of an ever-growing key.
          if (enc === undefined || out.length + enc.length > MAX_ENCODED_KEY) return undefined;
          out += enc;
        }
        return `${out})`;
      }
      return undefined;
  }
}

export class HashTable {
  /** prim -> value (for sets the value is the key itself). */
  readonly vals = new Map<Prim, Value>();
  /** prim -> original key, only for keys that are not their own prim. */
  private origKeys: Map<Prim, Value> | undefined;
  /** hash -> number of probe slots ever used for it. */
  private probeCounts: Map<number, number> | undefined;
  frozen = false;
  itercount = 0;

  get size(): number {
    return this.vals.size;
  }

  checkMutable(verb: string): void {
    if (this.frozen) throw new StarEvalError(`cannot ${verb} frozen hash table`);
    if (this.itercount > 0) throw new StarEvalError(`cannot ${verb} hash table during iteration`);
  }

  /**
   * The prim of a key; throws "unhashable type: T" for unhashable keys.
   * `forInsert`: return a free probe slot if the key is absent.
   */
  private prim(k: Value, forInsert: boolean): Prim {
    switch (typeof k) {
      case "string":
      case "number":
      case "bigint":
      case "boolean":
        return k;
    }
    if (k === None) return k;
    if (k instanceof StarFloat) {
      const f = k.value;
      if (Number.isInteger(f) && !Number.isSafeInteger(f)) return BigInt(f);
      return f;
    }
    if (k instanceof StarTuple) {
      const enc = encode(k);
      if (enc !== undefined) return TUPLE_TAG + enc;
    } else if (k.compareSameType === undefined) {
      k.hash(); // unhashable types throw here
      return k;
    }
    return this.probe(k, valueHooks.hash(k), forInsert);
  }

  private probe(k: Value, h: number, forInsert: boolean): Prim {
    const count = this.probeCounts?.get(h) ?? 0;
    let free: string | undefined;
    for (let n = 0; n < count; n++) {
      const slot = `${PROBE_TAG}${h}#${n}`;
      const existing = this.origKeys?.get(slot);
      if (existing === undefined) {
        free ??= slot;
      } else if (existing === k || valueHooks.equals(existing, k)) {
        return slot;
      }
    }
    if (!forInsert) return `${PROBE_TAG}${h}#absent`;
    if (free !== undefined) return free;
    this.probeCounts ??= new Map();
    this.probeCounts.set(h, count + 1);
    return `${PROBE_TAG}${h}#${count}`;
  }

  get(k: Value): Value | undefined {
    if (typeof k === "string") return this.vals.get(k);
    return this.vals.get(this.prim(k, false));
  }

  has(k: Value): boolean {
    return this.get(k) !== undefined;
  }

  /** Inserts or updates; a new key is checked against the thread's collection size limit. */
  set(k: Value, v: Value, thread?: Thread): void {
    if (this.frozen || this.itercount > 0) this.checkMutable("insert into");
    const vals = this.vals;
    const before = vals.size;
    if (typeof k === "string") {
      vals.set(k, v); // one hash lookup: whether the key is new shows in the size
      if (vals.size !== before) this.checkGrowth(k, thread);
      return;
    }
    const p = this.prim(k, true);
    vals.set(p, v);
    if (vals.size !== before) {
      this.checkGrowth(p, thread);
      if (p !== k) {
        this.origKeys ??= new Map();
        this.origKeys.set(p, k);
      }
    }
  }

  /** Undoes the insertion of p and throws when the table outgrew the limit. */
  private checkGrowth(p: Prim, thread: Thread | undefined): void {
    try {
      checkCollectionSize(thread, this.vals.size);
    } catch (e) {
      this.vals.delete(p);
      throw e;
    }
  }

  /** Removes k; returns its value or undefined if absent. */
  delete(k: Value): Value | undefined {
    if (this.frozen || this.itercount > 0) this.checkMutable("delete from");
    const p = typeof k === "string" ? k : this.prim(k, false);
    const v = this.vals.get(p);
    if (v === undefined) return undefined;
    this.vals.delete(p);
    this.origKeys?.delete(p);
    return v;
  }

  clear(): void {
    if (this.frozen || this.itercount > 0) this.checkMutable("clear");
    this.vals.clear();
    this.origKeys = undefined;
    this.probeCounts = undefined;
  }

  keyOf(p: Prim): Value {
    const orig = this.origKeys?.get(p);
    return orig !== undefined ? orig : (p as Value);
  }

  keys(): Value[] {
    const out: Value[] = [];
    if (this.origKeys === undefined) {
      for (const p of this.vals.keys()) out.push(p as Value);
    } else {
      for (const p of this.vals.keys()) out.push(this.keyOf(p));
    }
    return out;
  }

  values(): Value[] {
    return Array.from(this.vals.values());
  }

  /** [key, value] pairs in order. */
  entries(): [Value, Value][] {
    const out: [Value, Value][] = [];
    for (const [p, v] of this.vals) out.push([this.keyOf(p), v]);
    return out;
  }

  /** (key, value) tuples in order, built in one pass (dict.items()). */
  itemTuples(): StarTuple[] {
    const out = new Array<StarTuple>(this.vals.size);
    let i = 0;
    if (this.origKeys === undefined) {
      for (const [p, v] of this.vals) out[i++] = new StarTuple([p as Value, v]);
    } else {
      for (const [p, v] of this.vals) out[i++] = new StarTuple([this.keyOf(p), v]);
    }
    return out;
  }

  /** First entry in order, for popitem. */
  first(): [Value, Value] | undefined {
    for (const [p, v] of this.vals) return [this.keyOf(p), v];
    return undefined;
  }
}
