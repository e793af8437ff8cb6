import { HashTableIterator } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import { HashTable } from "./hashtable.js";
import { type StarIterator, type StarValue, typeNameOnPrototype, type Value } from "./value.js";

/** Insertion-ordered Starlark set (each element is stored as its own value). */
export class StarSet extends HashTable implements StarValue {
  declare readonly type: "set";

  constructor(elems?: Iterable<Value>) {
    super();
    if (elems) for (const e of elems) this.set(e, e);
  }
  /**
   * The set is its own hash table (one object per set instead of two, as for dict); `ht`
   * keeps the table-level API apart from the set-level one for readers.
   */
  get ht(): HashTable {
    return this;
  }
  freeze(): void {
    if (!this.frozen) deepFreeze(this);
  }
  freezeShallow(push: (child: Value) => void): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const k of this.keys()) push(k);
  }
  truth(): boolean {
    return this.size > 0;
  }
  hash(): number {
    throw new StarEvalError("unhashable type: set");
  }
  len(): number {
    return this.size;
  }
  add(k: Value): void {
    if (this.get(k) !== undefined) return;
    this.set(k, k);
  }
  elems(): Value[] {
    return this.keys();
  }
  iterate(): StarIterator {
    return new HashTableIterator(this);
  }
}
typeNameOnPrototype(StarSet, "set");
