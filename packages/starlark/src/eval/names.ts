import type { Binding } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";
import { EvalError as StarEvalError, type Value } from "../values/index.js";
import type { CompileContext } from "./context.js";
import { annotate } from "./errors.js";
import type { Cell, ExprFn, Frame } from "./frame.js";
import type { StarFunction } from "./function.js";

function unbound(fr: Frame, pos: Position, msg: string): never {
  annotate(new StarEvalError(msg), fr, pos);
}

/** Compiles a read of a resolved name into the cheapest access for its scope. */
export function compileRead(ctx: CompileContext, b: Binding, pos: Position): ExprFn {
  const i = b.index;
  const name = b.name;
  switch (b.scope) {
    case "local":
      return (fr) => {
        const v = fr.locals[i];
        if (v === undefined) unbound(fr, pos, `local variable ${name} referenced before assignment`);
        return v as Value;
      };
    case "cell":
      return (fr) => {
        const v = (fr.locals[i] as Cell).v;
        if (v === undefined) unbound(fr, pos, `local variable ${name} referenced before assignment`);
        return v;
      };
    case "free":
      return (fr) => {
        const v = ((fr.fn as StarFunction).freevars[i] as Cell).v;
        if (v === undefined) unbound(fr, pos, `local variable ${name} referenced before assignment`);
        return v;
      };
    case "global":
      return (fr) => {
        const v = fr.module.globals[i];
        if (v === undefined) unbound(fr, pos, `global variable ${name} referenced before assignment`);
        return v;
      };
    case "predeclared": {
      let slot = ctx.predeclaredIndex.get(name);
      if (slot === undefined) {
        slot = ctx.predeclaredIndex.size;
        ctx.predeclaredIndex.set(name, slot);
      }
      const s = slot;
      return (fr) => {
        const v = fr.module.predeclared[s];
        if (v === undefined)
          unbound(fr, pos, `internal error: predeclared variable ${name} is uninitialized`);
        return v;
      };
    }
    case "universal": {
      const v = ctx.universe.get(name);
      if (v === undefined) return (fr) => unbound(fr, pos, `undefined: ${name}`);
      return () => v;
    }
  }
}

export type StoreFn = (fr: Frame, v: Value) => void;

/** Compiles a write to a resolved name. */
export function compileWrite(b: Binding): StoreFn {
  const i = b.index;
  switch (b.scope) {
    case "local":
      return (fr, v) => {
        fr.locals[i] = v;
      };
    case "cell":
      return (fr, v) => {
        (fr.locals[i] as Cell).v = v;
      };
    case "global":
      return (fr, v) => {
        fr.module.globals[i] = v;
      };
    case "free":
      return (fr, v) => {
        ((fr.fn as StarFunction).freevars[i] as Cell).v = v;
      };
    default:
      // The resolver turns every assigned name into a local or global binding.
      throw new Error(`internal error: cannot assign to ${b.scope} ${b.name}`);
  }
}
