/**
 * go.starlark.net's starlarkstruct extension: `struct(**kwargs)` and branded structs
 * made by calling a `gensym(name=...)` symbol.
 */
import { StarEvalError } from "../values/errors.js";
import { compareDepth, hashValue } from "../values/ops.js";
import { repr } from "../values/repr.js";
import type { Thread } from "../values/thread.js";
import {
  type BinaryOp,
  Builtin,
  type Callable,
  type CompareOp,
  type StarValue,
  type Value,
} from "../values/value.js";

/** A constructor symbol: calling it makes structs branded with it. */
export class StarSymbol implements Callable {
  readonly type = "symbol";
  constructor(readonly name: string) {}
  call(_thread: Thread, args: Value[], kwargs: [string, Value][]): Value {
    if (args.length > 0) throw new StarEvalError(`${this.name}: unexpected positional arguments`);
    return new StarStruct(this, kwargs);
  }
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    return hashValue(this.name);
  }
  repr(): string {
    return this.name;
  }
}

/** The constructor of plain `struct(...)` values. */
export const DEFAULT_CONSTRUCTOR = new StarSymbol("struct");

export class StarStruct implements StarValue {
  readonly type = "struct";
  /** Fields sorted by name. */
  readonly fields: ReadonlyMap<string, Value>;

  constructor(
    readonly constructorSymbol: StarSymbol,
    entries: Iterable<readonly [string, Value]>,
  ) {
    this.fields = new Map([...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  }
  freeze(): void {
    for (const v of this.fields.values()) if (typeof v === "object") v.freeze();
  }
  truth(): boolean {
    return true;
  }
  hash(): number {
    let h = this.constructorSymbol.hash();
    for (const [k, v] of this.fields) h = (Math.imul(h, 31) + hashValue(k) + 7 * hashValue(v)) | 0;
    return h;
  }
  repr(): string {
    const parts = [...this.fields].map(([k, v]) => `${k} = ${repr(v)}`);
    return `${this.constructorSymbol.name}(${parts.join(", ")})`;
  }
  attrNames(): string[] {
    return [...this.fields.keys()];
  }
  getAttr(name: string): Value | undefined {
    const v = this.fields.get(name);
    if (v !== undefined) return v;
    const brand = this.constructorSymbol === DEFAULT_CONSTRUCTOR ? "" : `${this.constructorSymbol.name} `;
    throw new StarEvalError(`${brand}struct has no .${name} attribute`);
  }
  compareSameType(op: CompareOp, other: StarValue, depth: number): boolean {
    const y = other as StarStruct;
    if (op !== "==" && op !== "!=") {
      throw new StarEvalError(`${this.type} ${op} ${y.type} not implemented`);
    }
    let eq = this.constructorSymbol === y.constructorSymbol && this.fields.size === y.fields.size;
    if (eq) {
      for (const [k, v] of this.fields) {
        const w = y.fields.get(k);
        if (w === undefined || !compareDepth("==", v, w, depth - 1)) {
          eq = false;
          break;
        }
      }
    }
    return op === "==" ? eq : !eq;
  }
  binary(op: BinaryOp, other: Value, side: "left" | "right"): Value | undefined {
    if (op !== "+" || !(other instanceof StarStruct)) return undefined;
    const [x, y] = side === "left" ? [this, other] : [other, this];
    if (x.constructorSymbol !== y.constructorSymbol) {
      throw new StarEvalError(
        `cannot add structs of different constructors: ${x.constructorSymbol.name} + ${y.constructorSymbol.name}`,
      );
    }
    return new StarStruct(x.constructorSymbol, [...x.fields, ...y.fields]);
  }
}

/** `struct(**kwargs)`. */
export const structBuiltin = new Builtin("struct", (thread, args, kwargs) =>
  DEFAULT_CONSTRUCTOR.call(thread, args, kwargs),
);

/** `gensym(name)`: a new constructor symbol. */
export const gensymBuiltin = new Builtin("gensym", (_thread, args, kwargs) => {
  const all: [string, Value][] = [...kwargs];
  if (args.length > 0) all.unshift(["name", args[0] as Value]);
  const name = all.find(([k]) => k === "name")?.[1];
  if (typeof name !== "string" || all.length !== 1)
    throw new StarEvalError("gensym: want exactly one argument, name (a string)");
  return new StarSymbol(name);
});
