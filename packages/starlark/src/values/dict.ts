import { StarEvalError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import { HashTable, SMALL_TABLE_MAX } from "./hashtable.js";
import type { Thread } from "./thread.js";
import { type StarIterator, type StarValue, typeNameOnPrototype, type Value } from "./value.js";

/** Insertion-ordered Starlark dict. */
export class StarDict extends HashTable implements StarValue {
  declare readonly type: "dict";
  /**
   * The dict is its own hash table (one object per dict instead of two: programs that build
   * many small dicts spend much of their time in garbage collection). `ht` keeps the
   * table-level API apart from the dict-level one for readers.
   */
  get ht(): HashTable {
    return this;
  }

  freeze(): void {
    if (!this.ht.frozen) deepFreeze(this);
  }
  freezeShallow(push: (child: Value) => void): void {
    if (this.ht.frozen) return;
    this.ht.frozen = true;
    for (const [k, v] of this.ht.entries()) {
      push(k);
      push(v);
    }
  }
  truth(): boolean {
    return this.ht.size > 0;
  }
  hash(): number {
    throw new StarEvalError("unhashable type: dict");
  }
  len(): number {
    return this.ht.size;
  }
  /** d[k] = v, with go.starlark.net's errors. */
  setKey(k: Value, v: Value, thread?: Thread): void {
    this.ht.set(k, v, thread);
  }
  iterate(): StarIterator {
    return new HashTableIterator(this.ht);
  }
}

typeNameOnPrototype(StarDict, "dict");

/**
 * Most keys a dict literal may have to be built by dictFromLiteral: a shaped table has no
 * index, which is only right while it is small enough to need none.
 */
export const MAX_LITERAL_DICT_KEYS = SMALL_TABLE_MAX;

/**
 * A dict from a dict literal whose keys are distinct strings, at most MAX_LITERAL_DICT_KEYS of
 * them: `keys` is shared by every dict that literal builds (never modified), `values` (in key
 * order) is taken over. Scriptlets build thousands of dicts this way.
 */
export function dictFromLiteral(keys: readonly string[], values: Value[]): StarDict {
  return new StarDict(keys, values);
}

/** Iterates keys, blocking mutation until done(). */
export class HashTableIterator implements StarIterator {
  private readonly keys: Value[];
  private i = 0;
  /** Whether this iterator holds the table's mutation lock (frozen tables need none). */
  private locked: boolean;
  constructor(private readonly ht: HashTable) {
    this.keys = ht.keys();
    this.locked = !ht.frozen;
    if (this.locked) ht.itercount++;
  }
  next(): Value | undefined {
    return this.i < this.keys.length ? this.keys[this.i++] : undefined;
  }
  done(): void {
    if (this.locked) {
      this.locked = false;
      this.ht.itercount--;
    }
  }
}

/** Builds a dict from [key, value] pairs. */
export function dictFromEntries(entries: Iterable<readonly [Value, Value]>): StarDict {
  const d = new StarDict();
  for (const [k, v] of entries) d.setKey(k, v);
  return d;
}
