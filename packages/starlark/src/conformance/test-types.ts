import {
  Builtin,
  NoSuchAttrError,
  EvalError as StarEvalError,
  type StarIterator,
  StarList,
  type StarValue,
  type Value,
} from "../values/index.js";

/**
 * The application-defined types that go.starlark.net's eval_test.go predeclares for the
 * conformance files: hasfields and fibonacci (struct and gensym come from the library).
 */

/** A test-only value on which any field can be set (until frozen). */
export class HasFields implements StarValue {
  readonly type = "hasfields";
  private readonly fields = new Map<string, Value>();
  private frozen = false;
  freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const v of this.fields.values()) if (typeof v === "object") v.freeze();
  }
  truth(): boolean {
    return true;
  }
  hash(): number {
    return 42;
  }
  repr(): string {
    return "hasfields";
  }
  attrNames(): string[] {
    return [...this.fields.keys()];
  }
  getAttr(name: string): Value | undefined {
    return this.fields.get(name);
  }
  setField(name: string, v: Value): void {
    if (this.frozen) throw new StarEvalError("cannot set field on a frozen hasfields");
    if (name.startsWith("no")) throw new NoSuchAttrError(`no .${name} field`);
    this.fields.set(name, v);
  }
  /** eval_test.go defines list + hasfields = 42 (it tests `x += hasfields()` on a list). */
  binary(op: string, other: Value, side: "left" | "right"): Value | undefined {
    if (op === "+" && side === "right" && other instanceof StarList) return 42;
    return undefined;
  }
}

export const hasfieldsBuiltin = new Builtin("hasfields", () => new HasFields());

/** An unhashable, infinite iterable of the Fibonacci numbers. */
export class Fibonacci implements StarValue {
  readonly type = "fib";
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    throw new StarEvalError("unhashable type: fib");
  }
  iterate(): StarIterator {
    let a = 0;
    let b = 1;
    return {
      next(): Value {
        const v = a;
        [a, b] = [b, a + b];
        return v;
      },
      done(): void {},
    };
  }
}
