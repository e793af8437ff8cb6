/**
 * Insertion-ordered hash table behind dict and set.
 *
 * Keys map to a JS primitive ("prim") compared with === (and NaN equal to NaN): strings, ints,
 * bools and None are their own prim; a float maps to the number (so 1.0 and 1 collide, as
 * Starlark requires); a tuple of such values maps to a canonical string starting with U+0100
 * (no byte string can contain it), a bytes value to its data behind U+0102, so equal bytes are
 * one key. Identity-compared objects are their own prim. Anything else
 * (host values with custom equality, tuples holding them) uses "U+0101<hash>#<probe>" slots
 * compared with `equals`.
 *
 * The table itself is hand-written rather than a JS Map, for two measured reasons: programs
 * that build many small dicts (scriptlets: one dict per cluster member, nested) spent much of
 * their time collecting Map backing stores (a small Map is a JSMap plus a hash table sized for
 * growth; here a literal's dict is one exact-size array), and inserting and looking up 200,000
 * freshly built string keys ("key%d" % i) took about 1.5x the CPU time in a Map that it takes
 * in the open-addressing index below. Layout:
 * - `slots` holds [prim, value, prim, value, ...] in insertion order, so iteration order is
 *   Starlark's dict order; updating a key keeps its place, re-inserting a removed key appends.
 * - Up to SMALL_MAX entries there is no index at all: lookups scan the prims, which for the
 *   typical literal field names is a pointer comparison each. Removal shifts the tail down.
 * - A dict built by a dict literal with distinct string keys starts out "shaped": every dict from
 *   that literal shares one keys array (`shape`) and `slots` holds only the values, in key
 *   order. This halves the per-dict array for the commonest scriptlet structures (10,000 member
 *   records of six dicts each are copied by every young-generation collection while they are
 *   built). Lookups and reads work on the shaped form; anything that changes the table first
 *   gives it its own [prim, value, ...] array (`unshare`).
 * - Larger tables add an open-addressing index (linear probing over a power-of-two Int32Array
 *   of entry numbers + 1) and each entry's hash. Removal leaves a DELETED prim in place (the
 *   index still points at it, acting as a tombstone); the table is compacted when removed
 *   entries outnumber live ones.
 */
import { StarBytes } from "./bytes.js";
import { StarEvalError } from "./errors.js";
import { valueHooks } from "./hooks.js";
import { StarTuple } from "./list.js";
import { ALLOC, checkCollectionSize, DEFAULT_LIMITS, type Thread } from "./thread.js";
import { hashNumber, None, StarFloat, type Value } from "./value.js";

type Prim = unknown;

const TUPLE_TAG = "\u0100";
/** Bytes keys map to their data behind this tag: equal bytes are one key, never equal to a string. */
const BYTES_TAG = "\u0102";
const MAX_ENCODED_KEY = 4096;
const PROBE_TAG = "\u0101";

/** Entries looked up by a linear scan before the table builds its index. */
const SMALL_MAX = 16;
export const SMALL_TABLE_MAX = SMALL_MAX;
/** Index size when a small table first outgrows SMALL_MAX (kept at most half full). */
const FIRST_INDEX_SIZE = 64;
/** Marks the prim of a removed entry in a large table; never equal to any prim. */
const DELETED: unknown = Object.freeze({ deleted: true });

/**
 * Per-process seed, so that a program cannot precompute colliding string keys. Iteration order
 * never depends on hashes, so the seed does not show in any result.
 */
const SEED = (Math.random() * 0x100000000) | 0;

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

function hashString(s: string): number {
  let h = SEED ^ s.length;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix(h);
}

/** Identity hashes of object prims (None and identity-compared values); JS exposes none. */
const identityHashes = new WeakMap<object, number>();
let nextIdentityHash = 1;

function hashPrim(p: Prim): number {
  switch (typeof p) {
    case "string":
      return hashString(p);
    case "number":
      // 0 and -0 are one key (=== says so); both take the integer path.
      return mix(
        Number.isInteger(p) && p >= -0x80000000 && p <= 0x7fffffff
          ? Math.imul(p | 0, 0x9e3779b1)
          : hashNumber(p),
      );
    case "bigint":
      return mix(Number(BigInt.asIntN(32, p)) ^ 0x5bd1e995);
    case "boolean":
      return p ? 0x1f3d5b79 : 0x2e4c6a88;
    default: {
      const o = p as object;
      let h = identityHashes.get(o);
      if (h === undefined) {
        h = mix(nextIdentityHash++);
        identityHashes.set(o, h);
      }
      return h;
    }
  }
}

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
      if (v instanceof StarBytes) return `b${v.data.length}:${v.data}`;
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

/** The index of a table that outgrew SMALL_MAX entries. */
interface LargeIndex {
  /**
   * Open addressing with linear probing, two numbers per bucket: entry number + 1 (0 for an
   * empty bucket) and the entry's hash, side by side so that a probe touches one cache line
   * before it compares keys (in big tables each memory access is likely a cache miss).
   */
  buckets: Int32Array;
  /** The hash of each entry, by entry number (for rebuilding). */
  hashes: Int32Array;
  /** Slot position at or before the first live entry (popping the first stays O(1) amortized). */
  head: number;
}

/** Bookkeeping for keys that are not their own prim (floats, tuples, probed host values). */
interface OddKeys {
  /** prim -> original key. */
  origKeys: Map<Prim, Value>;
  /** hash -> number of probe slots ever used for it. */
  probeCounts: Map<number, number> | undefined;
}

export class HashTable {
  /**
   * [prim, value, prim, value, ...] in insertion order (for sets the value is the key); while
   * `shape` is set, only the values, in the order of `shape`.
   */
  private slots: unknown[];
  /** Distinct string keys shared with other dicts from the same literal, or undefined. */
  private shape: readonly string[] | undefined;
  /** Number of live entries. */
  private live: number;
  /** Present once the table outgrew SMALL_MAX entries. */
  private large: LargeIndex | undefined = undefined;
  private odd: OddKeys | undefined = undefined;
  frozen = false;
  itercount = 0;
  /**
   * Whether the table ever held an entry (go's `ht.table != nil`): upstream's delete answers
   * "not found" from a never-filled table without hashing the key, so `{}.pop([])` is a
   * missing key, not an unhashable one.
   */
  allocated = false;

  /**
   * `shape` and `values`: the keys and values of a dict literal whose keys are distinct strings,
   * at most SMALL_MAX of them (see dictFromLiteral); the table shares `shape` with the other
   * dicts from that literal and takes `values` over.
   */
  constructor(shape?: readonly string[], values?: unknown[]) {
    this.slots = values ?? [];
    this.shape = shape;
    this.live = shape === undefined ? 0 : shape.length;
    this.allocated = this.live > 0;
  }

  /** Gives a shaped table its own [prim, value, ...] array, before anything changes it. */
  private unshare(): void {
    const shape = this.shape;
    if (shape === undefined) return;
    const values = this.slots;
    const slots: unknown[] = [];
    for (let i = 0; i < shape.length; i++) slots.push(shape[i], values[i]);
    this.slots = slots;
    this.shape = undefined;
  }

  get size(): number {
    return this.live;
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
    if (k instanceof StarBytes) return BYTES_TAG + k.data;
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
    const odd = this.odd;
    const count = odd?.probeCounts?.get(h) ?? 0;
    let free: string | undefined;
    for (let n = 0; n < count; n++) {
      const slot = `${PROBE_TAG}${h}#${n}`;
      const existing = odd?.origKeys.get(slot);
      if (existing === undefined) {
        free ??= slot;
      } else if (existing === k || valueHooks.equals(existing, k)) {
        return slot;
      }
    }
    if (!forInsert) return `${PROBE_TAG}${h}#absent`;
    if (free !== undefined) return free;
    this.odd ??= { origKeys: new Map(), probeCounts: undefined };
    this.odd.probeCounts ??= new Map();
    this.odd.probeCounts.set(h, count + 1);
    return `${PROBE_TAG}${h}#${count}`;
  }

  /**
   * Position of prim p, or -1: twice the entry number (its slot position when not shaped), so
   * positions are even in either form.
   */
  private find(p: Prim): number {
    if (this.large !== undefined) return this.findIndexed(p, hashPrim(p));
    const shape = this.shape;
    if (shape !== undefined) {
      for (let i = 0; i < shape.length; i++) if (shape[i] === p) return 2 * i;
      return -1;
    }
    const slots = this.slots;
    for (let i = 0; i < slots.length; i += 2) if (slots[i] === p) return i;
    // biome-ignore lint/suspicious/noSelfCompare: NaN is the one prim not equal to itself
    if (p !== p) return this.findNaN();
    return -1;
  }

  private findIndexed(p: Prim, h: number): number {
    const slots = this.slots;
    const buckets = (this.large as LargeIndex).buckets;
    const mask = buckets.length - 2;
    for (let b = (h << 1) & mask; ; b = (b + 2) & mask) {
      const e = buckets[b] as number;
      if (e === 0) return -1;
      if (buckets[b + 1] === h) {
        const q = slots[2 * e - 2];
        // biome-ignore lint/suspicious/noSelfCompare: NaN keys are equal to each other, as in a JS Map
        if (q === p || (q !== q && p !== p)) return 2 * e - 2;
      }
    }
  }

  private findNaN(): number {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i += 2) {
      const q = slots[i];
      // biome-ignore lint/suspicious/noSelfCompare: looking for NaN
      if (q !== q) return i;
    }
    return -1;
  }

  /**
   * Slot position of string key k, or -1; `hint` is where a previous lookup found it (possibly
   * in another table). Dicts built by one literal share their key order, so a `m["field"]` site
   * remembers the position and usually needs a single pointer comparison (literals are interned).
   */
  positionOfString(k: string, hint: number): number {
    const shape = this.shape;
    if (shape !== undefined) {
      if (shape[hint >> 1] === k) return hint;
    } else {
      const slots = this.slots;
      if (hint < slots.length && slots[hint] === k) return hint;
    }
    return this.find(k);
  }

  /** The value at a position found by positionOfString (or find). */
  valueAt(position: number): Value {
    return (this.shape === undefined ? this.slots[position + 1] : this.slots[position >> 1]) as Value;
  }

  get(k: Value): Value | undefined {
    const i = this.find(typeof k === "string" ? k : this.prim(k, false));
    return i < 0 ? undefined : this.valueAt(i);
  }

  has(k: Value): boolean {
    return this.get(k) !== undefined;
  }

  /** Inserts or updates; a new key is checked against the thread's collection size limit. */
  set(k: Value, v: Value, thread?: Thread): void {
    if (this.frozen || this.itercount > 0) this.checkMutable("insert into");
    if (this.shape !== undefined) this.unshare();
    this.allocated = true;
    const p = typeof k === "string" ? k : this.prim(k, true);
    const slots = this.slots;
    if (this.large === undefined) {
      const i = this.find(p);
      if (i >= 0) {
        slots[i + 1] = v;
        return;
      }
      checkCollectionSize(thread, this.live + 1);
      thread?.alloc(ALLOC.entry);
      slots.push(p, v);
      this.live++;
      if (slots.length > 2 * SMALL_MAX) this.rebuild(FIRST_INDEX_SIZE);
    } else {
      const h = hashPrim(p);
      const i = this.findIndexed(p, h);
      if (i >= 0) {
        slots[i + 1] = v;
        return;
      }
      checkCollectionSize(thread, this.live + 1);
      thread?.alloc(ALLOC.entry);
      this.append(p, v, h);
    }
    if (p !== k) {
      this.odd ??= { origKeys: new Map(), probeCounts: undefined };
      this.odd.origKeys.set(p, k);
    }
  }

  /** Appends a new entry to an indexed table, growing or compacting it first when needed. */
  private append(p: Prim, v: Value, h: number): void {
    let large = this.large as LargeIndex;
    const entries = this.slots.length >> 1;
    const size = large.buckets.length >> 1;
    if (2 * (entries + 1) > size) {
      // Compact in place when half the entries are removed ones, else double the index.
      const removed = entries - this.live;
      this.rebuild(removed * 2 >= entries ? size : size * 2);
      large = this.large as LargeIndex;
    }
    const { buckets, hashes } = large;
    const n = this.slots.length >> 1;
    const mask = buckets.length - 2;
    let b = (h << 1) & mask;
    while (buckets[b] !== 0) b = (b + 2) & mask;
    buckets[b] = n + 1;
    buckets[b + 1] = h;
    hashes[n] = h;
    this.slots.push(p, v);
    this.live++;
  }

  /** Drops removed entries and builds an index with `size` (a power of two) buckets. */
  private rebuild(size: number): void {
    const old = this.slots;
    const oldHashes = this.large?.hashes;
    let slots = old;
    if (old.length !== 2 * this.live) {
      slots = [];
      for (let i = 0; i < old.length; i += 2) {
        if (old[i] !== DELETED) slots.push(old[i], old[i + 1]);
      }
    }
    const buckets = new Int32Array(2 * size);
    const hashes = new Int32Array(size >> 1);
    const mask = 2 * size - 2;
    let n = 0;
    for (let i = 0; i < old.length; i += 2) {
      const p = old[i];
      if (p === DELETED) continue;
      const h = oldHashes === undefined ? hashPrim(p) : (oldHashes[i >> 1] as number);
      let b = (h << 1) & mask;
      while (buckets[b] !== 0) b = (b + 2) & mask;
      buckets[b] = n + 1;
      buckets[b + 1] = h;
      hashes[n] = h;
      n++;
    }
    this.slots = slots;
    this.large = { buckets, hashes, head: 0 };
  }

  /**
   * Makes this empty table an entry-for-entry copy of src, without hashing or comparing any
   * key again (dict(d), and update into an empty dict, copy big tables this way). Returns
   * false, changing nothing, when the caller must insert one by one instead: this table is
   * not empty or not mutable (the caller reports that), or src exceeds the size limit (the
   * caller fails at the same entry as always).
   */
  copyFrom(src: HashTable, thread?: Thread): boolean {
    if (this.slots.length !== 0 || this.frozen || this.itercount > 0) return false;
    const max = thread ? thread.limits.maxCollectionSize : DEFAULT_LIMITS.maxCollectionSize;
    if (src.live > max) return false;
    thread?.alloc(ALLOC.entry * src.live);
    this.allocated = src.allocated;
    this.slots = src.slots.slice();
    this.shape = src.shape;
    this.live = src.live;
    const large = src.large;
    if (large !== undefined) {
      this.large = { buckets: large.buckets.slice(), hashes: large.hashes.slice(), head: large.head };
    }
    const odd = src.odd;
    if (odd !== undefined) {
      this.odd = {
        origKeys: new Map(odd.origKeys),
        probeCounts: odd.probeCounts === undefined ? undefined : new Map(odd.probeCounts),
      };
    }
    return true;
  }

  /** Removes k; returns its value or undefined if absent. */
  delete(k: Value): Value | undefined {
    if (this.frozen || this.itercount > 0) this.checkMutable("delete from");
    if (!this.allocated) return undefined;
    if (this.shape !== undefined) this.unshare();
    const p = typeof k === "string" ? k : this.prim(k, false);
    const i = this.find(p);
    if (i < 0) return undefined;
    const slots = this.slots;
    const v = slots[i + 1] as Value;
    if (this.large === undefined) {
      slots.copyWithin(i, i + 2);
      slots.length -= 2;
    } else {
      // The bucket keeps pointing at the entry, which now matches nothing: a tombstone.
      slots[i] = DELETED;
      slots[i + 1] = undefined;
    }
    this.live--;
    this.odd?.origKeys.delete(p);
    return v;
  }

  clear(): void {
    if (this.frozen || this.itercount > 0) this.checkMutable("clear");
    this.slots = [];
    this.shape = undefined;
    this.live = 0;
    this.large = undefined;
    this.odd = undefined;
  }

  keyOf(p: Prim): Value {
    const orig = this.odd?.origKeys.get(p);
    return orig !== undefined ? orig : (p as Value);
  }

  /** Slot position from which iteration starts (removed entries before it are skipped for good). */
  private start(): number {
    const large = this.large;
    if (large === undefined) return 0;
    const slots = this.slots;
    let i = large.head;
    while (i < slots.length && slots[i] === DELETED) i += 2;
    large.head = i;
    return i;
  }

  keys(): Value[] {
    if (this.shape !== undefined) return this.shape.slice();
    const out = new Array<Value>(this.live);
    const slots = this.slots;
    const odd = this.odd;
    let n = 0;
    for (let i = this.start(); i < slots.length; i += 2) {
      const p = slots[i];
      if (p === DELETED) continue;
      out[n++] = odd === undefined ? (p as Value) : this.keyOf(p);
    }
    return out;
  }

  values(): Value[] {
    if (this.shape !== undefined) return this.slots.slice() as Value[];
    const out = new Array<Value>(this.live);
    const slots = this.slots;
    let n = 0;
    for (let i = this.start(); i < slots.length; i += 2) {
      if (slots[i] !== DELETED) out[n++] = slots[i + 1] as Value;
    }
    return out;
  }

  /** [key, value] pairs in order. */
  entries(): [Value, Value][] {
    return this.mapEntries((key, value) => [key, value]);
  }

  /** (key, value) tuples in order, built in one pass (dict.items()). */
  itemTuples(): StarTuple[] {
    return this.mapEntries((key, value) => new StarTuple([key, value]));
  }

  /** `make(key, value)` of every entry, in order, into an exact-size array. */
  private mapEntries<T>(make: (key: Value, value: Value) => T): T[] {
    const shape = this.shape;
    if (shape !== undefined) return shape.map((k, i) => make(k, this.slots[i] as Value));
    const out = new Array<T>(this.live);
    const slots = this.slots;
    const odd = this.odd;
    let n = 0;
    for (let i = this.start(); i < slots.length; i += 2) {
      const p = slots[i];
      if (p === DELETED) continue;
      out[n++] = make(odd === undefined ? (p as Value) : this.keyOf(p), slots[i + 1] as Value);
    }
    return out;
  }

  /** First entry in order, for popitem. */
  first(): [Value, Value] | undefined {
    this.unshare();
    const i = this.start();
    if (i >= this.slots.length) return undefined;
    return [this.keyOf(this.slots[i]), this.slots[i + 1] as Value];
  }
}
