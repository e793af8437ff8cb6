import { StarEvalError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import { type StarIterator, type StarValue, typeNameOnPrototype, type Value } from "./value.js";

/** Mutable Starlark list. */
export class StarList implements StarValue {
  declare readonly type: "list";
  frozen = false;
  /** Number of live iterators; mutation is refused while > 0. */
  itercount = 0;
  constructor(public elems: Value[] = []) {}

  freeze(): void {
    if (!this.frozen) deepFreeze(this);
  }
  freezeShallow(push: (child: Value) => void): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.elems) push(e);
  }
  truth(): boolean {
    return this.elems.length > 0;
  }
  hash(): number {
    throw new StarEvalError("unhashable type: list");
  }
  /** Throws go.starlark.net's error when the list may not be mutated; `verb` e.g. "append to". */
  checkMutable(verb: string): void {
    if (this.frozen) throw new StarEvalError(`cannot ${verb} frozen list`);
    if (this.itercount > 0) throw new StarEvalError(`cannot ${verb} list during iteration`);
  }
  iterate(): StarIterator {
    return new ListIterator(this);
  }
  len(): number {
    return this.elems.length;
  }
}
typeNameOnPrototype(StarList, "list");

class ListIterator implements StarIterator {
  private i = 0;
  /** Whether this iterator holds the list's mutation lock (frozen lists need none). */
  private locked: boolean;
  constructor(private readonly list: StarList) {
    this.locked = !list.frozen;
    if (this.locked) list.itercount++;
  }
  next(): Value | undefined {
    const elems = this.list.elems;
    return this.i < elems.length ? elems[this.i++] : undefined;
  }
  done(): void {
    if (this.locked) {
      this.locked = false;
      this.list.itercount--;
    }
  }
}

/** Immutable Starlark tuple. */
export class StarTuple implements StarValue {
  declare readonly type: "tuple";
  constructor(readonly elems: readonly Value[]) {}
  /** Tuples of plain values are common; skip the walk when nothing could need freezing. */
  freeze(): void {
    if (this.elems.some((e) => typeof e === "object")) deepFreeze(this);
  }
  freezeShallow(push: (child: Value) => void): void {
    for (const e of this.elems) push(e);
  }
  /** Cached: tuples are immutable, and sharing makes uncached hashing exponential on DAGs. */
  private hashCache: number | undefined;
  truth(): boolean {
    return this.elems.length > 0;
  }
  hash(): number {
    if (this.hashCache !== undefined) return this.hashCache;
    // go.starlark.net's tuple hash recipe (shape only; exact values are not observable).
    let x = 0x345678;
    let mult = 1000003;
    for (const e of this.elems) {
      const y = hashOf(e);
      x = Math.imul(x ^ y, mult);
      mult = (mult + 82520 + this.elems.length + this.elems.length) | 0;
    }
    this.hashCache = x | 0;
    return this.hashCache;
  }
  iterate(): StarIterator {
    return new ArrayIterator(this.elems);
  }
  len(): number {
    return this.elems.length;
  }
}
typeNameOnPrototype(StarTuple, "tuple");

export const EMPTY_TUPLE = new StarTuple([]);

export class ArrayIterator implements StarIterator {
  private i = 0;
  constructor(private readonly elems: readonly Value[]) {}
  next(): Value | undefined {
    return this.i < this.elems.length ? this.elems[this.i++] : undefined;
  }
  done(): void {}
}

/** Hash of any value; registered by ops at load time to avoid an import cycle. */
let hashOf: (v: Value) => number = () => 0;
export function registerTupleElementHash(fn: (v: Value) => number): void {
  hashOf = fn;
}
