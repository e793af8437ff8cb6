import type { Expr } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";
import { StarTuple, setField, setIndex, type Value } from "../values/index.js";
import type { CompileContext } from "./context.js";
import { annotate } from "./errors.js";
import { compileExpr } from "./expr.js";
import type { ExprFn, Frame } from "./frame.js";
import { unpackValues } from "./iterate.js";
import { compileWrite, type StoreFn } from "./names.js";

/**
 * Compiles an assignment target (name, x[i], x.f, or a tuple/list of targets). `pos` is where
 * an unpacking error is reported: the `=` of an assignment, the `for` of a loop or clause.
 */
export function compileStore(ctx: CompileContext, lhs: Expr, pos: Position): StoreFn {
  switch (lhs.kind) {
    case "Ident": {
      if (lhs.binding === undefined) throw new Error(`internal error: unresolved name ${lhs.name}`);
      return compileWrite(lhs.binding);
    }
    case "Paren":
      return compileStore(ctx, lhs.x, pos);
    case "Index": {
      const x = compileExpr(ctx, lhs.x);
      const k = compileExpr(ctx, lhs.index);
      const pos = lhs.lbrack;
      return (fr, v) => {
        const container = x(fr);
        const key = k(fr);
        try {
          setIndex(container, key, v, fr.thread);
        } catch (err) {
          annotate(err, fr, pos);
        }
      };
    }
    case "Dot": {
      const x = compileExpr(ctx, lhs.x);
      const name = lhs.name.name;
      const pos = lhs.dotPos;
      return (fr, v) => {
        const obj = x(fr);
        try {
          setField(obj, name, v);
        } catch (err) {
          annotate(err, fr, pos);
        }
      };
    }
    case "Tuple":
    case "List": {
      const stores = lhs.elems.map((e) => compileStore(ctx, e, pos));
      const n = stores.length;
      if (n === 2) {
        // for k, v in d.items(): the common case, without the generic unpacking call.
        const [s0, s1] = stores as [StoreFn, StoreFn];
        return (fr: Frame, v: Value) => {
          if (v instanceof StarTuple && v.elems.length === 2) {
            s0(fr, v.elems[0] as Value);
            s1(fr, v.elems[1] as Value);
            return;
          }
          let elems: readonly Value[];
          try {
            elems = unpackValues(fr.thread, v, 2);
          } catch (err) {
            annotate(err, fr, pos);
          }
          s0(fr, elems[0] as Value);
          s1(fr, elems[1] as Value);
        };
      }
      return (fr: Frame, v: Value) => {
        let elems: readonly Value[];
        try {
          elems = unpackValues(fr.thread, v, n);
        } catch (err) {
          annotate(err, fr, pos);
        }
        for (let i = 0; i < n; i++) (stores[i] as StoreFn)(fr, elems[i] as Value);
      };
    }
    default:
      throw new Error(`internal error: cannot assign to ${lhs.kind}`);
  }
}

export type { ExprFn };
