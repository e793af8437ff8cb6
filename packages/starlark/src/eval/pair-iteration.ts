/**
 * `for a, b in enumerate(seq)`, `for a, b in zip(xs, ys)` (over lists and tuples) and
 * `for k, v in d.items()` (loops and comprehensions) without building the pair tuples. These
 * calls return a fresh list of 2-tuples that the loop immediately unpacks again; on large
 * sequences those short-lived tuples were most of the garbage-collection work of
 * comprehension-heavy programs.
 *
 * The result is the same as calling the built-in: the sequences are read when the call would
 * have happened (a list is copied, so mutating it in the loop body has no effect, exactly as with
 * the list the built-in returns; d.items() likewise reads the dict's keys and values once), the
 * targets are assigned in order, and one step is counted per iteration. Any other argument (ranges, dicts, strings, errors) goes through the real built-in.
 */

import { universe } from "../library/universe.js";
import type { Expr } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";
import { Builtin, callValue, StarDict, StarList, StarTuple, type Value } from "../values/index.js";
import type { CompileContext } from "./context.js";
import { claim } from "./errors.js";
import type { ExprFn, Frame } from "./frame.js";
import type { StoreFn } from "./names.js";

/** The pairs a loop visits: (first[i] or i, second[i]) for i < length. */
export class PairSeq {
  constructor(
    /** undefined: the first element is the index (enumerate). */
    readonly first: readonly Value[] | undefined,
    readonly second: readonly Value[],
    readonly length: number,
  ) {}
}

export interface PairLoop {
  /** Evaluates the call: a PairSeq when the fast form applies, otherwise the built-in's result. */
  evaluate(fr: Frame): Value | PairSeq;
  storeFirst: StoreFn;
  storeSecond: StoreFn;
}

const standard = universe();
const enumerateFn = (standard.get("enumerate") as Builtin).fn;
const zipFn = (standard.get("zip") as Builtin).fn;
const NO_KWARGS: [string, Value][] = [];

/** The elements as they are now: tuples are immutable, lists are copied unless frozen. */
function snapshot(v: Value): readonly Value[] | undefined {
  if (v instanceof StarTuple) return v.elems;
  if (v instanceof StarList) return v.frozen ? v.elems : v.elems.slice();
  return undefined;
}

/**
 * Recognizes a loop over `enumerate(x)` / `zip(x, y)` (the universal built-ins, positional
 * arguments only) whose targets are exactly two; undefined for anything else.
 */
export function compilePairLoop(
  ctx: CompileContext,
  x: Expr,
  vars: Expr,
  forPos: Position,
  compileExpr: (ctx: CompileContext, e: Expr) => ExprFn,
  compileStore: (ctx: CompileContext, e: Expr, pos: Position) => StoreFn,
): PairLoop | undefined {
  const targets = vars.kind === "Paren" ? vars.x : vars;
  if (targets.kind !== "Tuple" || targets.elems.length !== 2) return undefined;
  const storeFirst = compileStore(ctx, targets.elems[0] as Expr, forPos);
  const storeSecond = compileStore(ctx, targets.elems[1] as Expr, forPos);
  if (
    x.kind === "Call" &&
    x.fn.kind === "Dot" &&
    x.fn.name.name === "items" &&
    x.args.length === 0 &&
    x.fn.x.kind === "Ident"
  ) {
    // d.items() on a name: reading a name twice has no side effects, so when it turns out
    // not to be a dict the general call simply runs.
    const recv = compileExpr(ctx, x.fn.x);
    const general = compileExpr(ctx, x);
    const evaluate = (fr: Frame): Value | PairSeq => {
      const d = recv(fr);
      if (d instanceof StarDict) return new PairSeq(d.ht.keys(), d.ht.values(), d.ht.size);
      return general(fr);
    };
    return { evaluate, storeFirst, storeSecond };
  }
  if (x.kind !== "Call" || x.fn.kind !== "Ident" || x.fn.binding?.scope !== "universal") return undefined;
  if (!x.args.every((a) => a.kind === "positional")) return undefined;
  const builtin = ctx.universe.get(x.fn.name);
  if (!(builtin instanceof Builtin)) return undefined;
  const isEnumerate = builtin.fn === enumerateFn && x.args.length === 1;
  const isZip = builtin.fn === zipFn && x.args.length === 2;
  if (!isEnumerate && !isZip) return undefined;
  const argFns = x.args.map((a) => compileExpr(ctx, a.value));
  const [a0, a1] = argFns as [ExprFn, ExprFn | undefined];
  const lparen: Position = x.lparen;
  const call = (fr: Frame, args: Value[]): Value => {
    fr.pos = lparen;
    try {
      return callValue(fr.thread, builtin, args, NO_KWARGS);
    } catch (err) {
      claim(err, fr);
    }
  };
  const evaluate = isEnumerate
    ? (fr: Frame): Value | PairSeq => {
        const v = a0(fr);
        const elems = snapshot(v);
        return elems === undefined ? call(fr, [v]) : new PairSeq(undefined, elems, elems.length);
      }
    : (fr: Frame): Value | PairSeq => {
        const v = a0(fr);
        const w = (a1 as ExprFn)(fr);
        const xs = snapshot(v);
        const ys = snapshot(w);
        if (xs === undefined || ys === undefined) return call(fr, [v, w]);
        return new PairSeq(xs, ys, Math.min(xs.length, ys.length));
      };
  return { evaluate, storeFirst, storeSecond };
}
