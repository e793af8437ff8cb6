import { HashTableIterator } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import { HashTable } from "./hashtable.js";
import type { Thread } from "./thread.js";
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

/** A copy of s (insertion order kept; a fresh table that is neither frozen nor iterated). */
export function cloneSet(s: StarSet): StarSet {
  const out = new StarSet();
  for (const e of s.elems()) out.set(e, e);
  return out;
}

// The set algebra of go.starlark.net's Set methods, shared by the operators (| & - ^, < <= > >=)
// and the methods. `other` is the other operand's elements in its own order: upstream iterates
// it, so an intersection lists its elements in the other operand's order.

/** s - other: a copy of s without other's elements (unhashable ones are an error, once s is non-empty). */
export function setDifference(s: StarSet, other: readonly Value[]): StarSet {
  const diff = cloneSet(s);
  for (const x of other) diff.delete(x);
  return diff;
}

/** s & other: other's elements that are in s, in other's order. */
export function setIntersection(s: StarSet, other: readonly Value[], t?: Thread): StarSet {
  const out = new StarSet();
  for (const x of other) if (s.get(x) !== undefined) out.set(x, x, t);
  return out;
}

/** s ^ other: a copy of s where each element of other is removed if present, else added. */
export function setSymmetricDifference(s: StarSet, other: readonly Value[], t?: Thread): StarSet {
  const diff = cloneSet(s);
  for (const x of other) if (diff.delete(x) === undefined) diff.set(x, x, t);
  return diff;
}

/** Every element of other is in s. */
export function setIsSuperset(s: StarSet, other: readonly Value[]): boolean {
  for (const x of other) if (s.get(x) === undefined) return false;
  return true;
}

/**
 * Every element of s is in other: go's ht.count, which stops reading `other` once all of s is
 * found (so an empty s hashes nothing).
 */
export function setIsSubset(s: StarSet, other: readonly Value[]): boolean {
  const seen = new StarSet();
  for (const x of other) {
    if (seen.len() === s.len()) break;
    if (s.get(x) !== undefined) seen.set(x, x);
  }
  return seen.len() === s.len();
}
