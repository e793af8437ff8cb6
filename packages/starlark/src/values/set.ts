import { HashTableIterator } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import { HashTable } from "./hashtable.js";
import type { StarIterator, StarValue, Value } from "./value.js";

/** Insertion-ordered Starlark set (values are stored as their own map value). */
export class StarSet implements StarValue {
  readonly type = "set";
  readonly ht = new HashTable();

  constructor(elems?: Iterable<Value>) {
    if (elems) for (const e of elems) this.ht.set(e, e);
  }
  freeze(): void {
    if (!this.ht.frozen) deepFreeze(this);
  }
  freezeShallow(push: (child: Value) => void): void {
    if (this.ht.frozen) return;
    this.ht.frozen = true;
    for (const k of this.ht.keys()) push(k);
  }
  get frozen(): boolean {
    return this.ht.frozen;
  }
  truth(): boolean {
    return this.ht.size > 0;
  }
  hash(): number {
    throw new StarEvalError("unhashable type: set");
  }
  len(): number {
    return this.ht.size;
  }
  has(k: Value): boolean {
    return this.ht.get(k) !== undefined;
  }
  add(k: Value): void {
    if (this.ht.get(k) !== undefined) return;
    this.ht.set(k, k);
  }
  elems(): Value[] {
    return this.ht.keys();
  }
  iterate(): StarIterator {
    return new HashTableIterator(this.ht);
  }
}
