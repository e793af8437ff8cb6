import { nearest } from "../spell/spell.js";
import type { AssignStmt, BinaryOp, Expr, ForStmt, LoadStmt, Stmt } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";
import {
  augmentedBinary,
  getAttr,
  getIndex,
  None,
  EvalError as StarEvalError,
  StarFloat,
  StarList,
  StarRange,
  setField,
  setIndex,
  truth,
  type Value,
} from "../values/index.js";
import { applyBinary, floatArith } from "./binary.js";
import type { CompileContext } from "./context.js";
import { annotate } from "./errors.js";
import { compileExpr, compileMakeFunction } from "./expr.js";
import {
  BREAK,
  CONTINUE,
  type Control,
  type ExprFn,
  type Frame,
  NORMAL,
  RETURN,
  type StmtFn,
} from "./frame.js";
import { forEachValue } from "./iterate.js";
import { compileRead, compileWrite, type StoreFn } from "./names.js";
import { compilePairLoop, type PairLoop, PairSeq } from "./pair-iteration.js";
import { compileStore } from "./store.js";

export function compileBlock(ctx: CompileContext, stmts: Stmt[]): StmtFn {
  const fns = stmts.map((s) => compileStmt(ctx, s));
  switch (fns.length) {
    case 0:
      return () => NORMAL;
    case 1:
      return fns[0] as StmtFn;
    case 2: {
      const [a, b] = fns as [StmtFn, StmtFn];
      return (fr) => {
        const c = a(fr);
        return c !== NORMAL ? c : b(fr);
      };
    }
    default:
      return (fr) => {
        for (let i = 0; i < fns.length; i++) {
          const c = (fns[i] as StmtFn)(fr);
          if (c !== NORMAL) return c;
        }
        return NORMAL;
      };
  }
}

function compileStmt(ctx: CompileContext, s: Stmt): StmtFn {
  switch (s.kind) {
    case "ExprStmt": {
      const x = compileExpr(ctx, s.x);
      return (fr) => {
        x(fr);
        return NORMAL;
      };
    }
    case "Assign":
      return s.op === "=" ? compileAssign(ctx, s) : compileAugmented(ctx, s);
    case "If": {
      const cond = compileExpr(ctx, s.cond);
      const then = compileBlock(ctx, s.then);
      const otherwise = compileBlock(ctx, s.else);
      return (fr) => {
        const c = cond(fr);
        return c === true || (c !== false && truth(c)) ? then(fr) : otherwise(fr);
      };
    }
    case "For":
      return compileFor(ctx, s);
    case "While": {
      const cond = compileExpr(ctx, s.cond);
      const body = compileBlock(ctx, s.body);
      return (fr) => {
        const thread = fr.thread;
        for (;;) {
          const c = cond(fr);
          if (!(c === true || (c !== false && truth(c)))) return NORMAL;
          thread.checkStep();
          const r = body(fr);
          if (r === BREAK) return NORMAL;
          if (r === RETURN) return RETURN;
        }
      };
    }
    case "Def": {
      const make = compileMakeFunction(ctx, s.fn);
      if (s.name.binding === undefined) throw new Error(`internal error: unresolved def ${s.name.name}`);
      const store = compileWrite(s.name.binding);
      return (fr) => {
        store(fr, make(fr));
        return NORMAL;
      };
    }
    case "Return": {
      if (s.result === undefined) {
        return (fr) => {
          fr.ret = None;
          return RETURN;
        };
      }
      const x = compileExpr(ctx, s.result);
      return (fr) => {
        fr.ret = x(fr);
        return RETURN;
      };
    }
    case "Branch":
      if (s.token === "break") return () => BREAK;
      if (s.token === "continue") return () => CONTINUE;
      return () => NORMAL;
    case "Load":
      return compileLoad(s);
  }
}

function compileAssign(ctx: CompileContext, s: AssignStmt): StmtFn {
  const { lhs, rhs } = s;
  // a, b = x, y: no intermediate tuple.
  if (
    (lhs.kind === "Tuple" || lhs.kind === "List") &&
    rhs.kind === "Tuple" &&
    lhs.elems.length === rhs.elems.length &&
    lhs.elems.length <= 8
  ) {
    const values = rhs.elems.map((e) => compileExpr(ctx, e));
    const stores = lhs.elems.map((e) => compileStore(ctx, e, s.opPos));
    const n = values.length;
    if (n === 2) {
      const [va, vb] = values as [ExprFn, ExprFn];
      const [sa, sb] = stores as [StoreFn, StoreFn];
      return (fr) => {
        const a = va(fr);
        const b = vb(fr);
        sa(fr, a);
        sb(fr, b);
        return NORMAL;
      };
    }
    return (fr) => {
      const tmp = new Array<Value>(n);
      for (let i = 0; i < n; i++) tmp[i] = (values[i] as ExprFn)(fr);
      for (let i = 0; i < n; i++) (stores[i] as StoreFn)(fr, tmp[i] as Value);
      return NORMAL;
    };
  }
  const value = compileExpr(ctx, rhs);
  if (lhs.kind === "Ident" && lhs.binding?.scope === "local") {
    const slot = lhs.binding.index;
    return (fr) => {
      fr.locals[slot] = value(fr);
      return NORMAL;
    };
  }
  const store = compileStore(ctx, lhs, s.opPos);
  return (fr) => {
    store(fr, value(fr));
    return NORMAL;
  };
}

/** x op= y: lists extend in place for +=, as in go.starlark.net (the value layer's augmentedBinary). */
function augment(fr: Frame, op: BinaryOp, a: Value, b: Value, pos: Position): Value {
  if (typeof a === "number" && typeof b === "number") return applyBinary(fr, op, a, b, pos);
  if (a instanceof StarFloat || b instanceof StarFloat) {
    const r = floatArith(op, a, b);
    if (r !== undefined) return r;
  }
  try {
    return augmentedBinary(op as Parameters<typeof augmentedBinary>[0], a, b, fr.thread);
  } catch (err) {
    annotate(err, fr, pos);
  }
}

function compileAugmented(ctx: CompileContext, s: AssignStmt): StmtFn {
  const op = s.op.slice(0, -1) as BinaryOp;
  const pos = s.opPos;
  const rhs = compileExpr(ctx, s.rhs);
  const lhs: Expr = s.lhs.kind === "Paren" ? s.lhs.x : s.lhs;
  switch (lhs.kind) {
    case "Ident": {
      if (lhs.binding === undefined) throw new Error(`internal error: unresolved name ${lhs.name}`);
      const read = compileRead(ctx, lhs.binding, lhs.pos);
      const write = compileWrite(lhs.binding);
      if (lhs.binding.scope === "local" && (op === "+" || op === "-")) {
        // Hot loop accumulators: t += x on a local small int.
        const slot = lhs.binding.index;
        const plus = op === "+";
        return (fr) => {
          const a = fr.locals[slot];
          if (typeof a === "number") {
            const b = rhs(fr);
            if (typeof b === "number") {
              const r = plus ? a + b : a - b;
              if (r <= Number.MAX_SAFE_INTEGER && r >= -Number.MAX_SAFE_INTEGER) {
                fr.locals[slot] = r;
                return NORMAL;
              }
            }
            fr.locals[slot] = augment(fr, op, a, b, pos);
            return NORMAL;
          }
          const x = read(fr);
          write(fr, augment(fr, op, x, rhs(fr), pos));
          return NORMAL;
        };
      }
      return (fr) => {
        const a = read(fr);
        write(fr, augment(fr, op, a, rhs(fr), pos));
        return NORMAL;
      };
    }
    case "Index": {
      const x = compileExpr(ctx, lhs.x);
      const k = compileExpr(ctx, lhs.index);
      const ipos = lhs.lbrack;
      return (fr) => {
        const container = x(fr);
        const key = k(fr);
        let a: Value;
        try {
          a = getIndex(container, key);
        } catch (err) {
          annotate(err, fr, ipos);
        }
        const r = augment(fr, op, a, rhs(fr), pos);
        try {
          setIndex(container, key, r, fr.thread);
        } catch (err) {
          annotate(err, fr, ipos);
        }
        return NORMAL;
      };
    }
    case "Dot": {
      const x = compileExpr(ctx, lhs.x);
      const name = lhs.name.name;
      const dpos = lhs.dotPos;
      return (fr) => {
        const obj = x(fr);
        let a: Value;
        try {
          a = getAttr(fr.thread, obj, name);
        } catch (err) {
          annotate(err, fr, dpos);
        }
        const r = augment(fr, op, a, rhs(fr), pos);
        try {
          setField(obj, name, r);
        } catch (err) {
          annotate(err, fr, dpos);
        }
        return NORMAL;
      };
    }
    default:
      throw new Error(`internal error: augmented assignment to ${lhs.kind}`);
  }
}

function compileFor(ctx: CompileContext, s: ForStmt): StmtFn {
  const x = compileExpr(ctx, s.x);
  const body = compileBlock(ctx, s.body);
  const pos = s.pos;
  const vars = s.vars;
  const localSlot = vars.kind === "Ident" && vars.binding?.scope === "local" ? vars.binding.index : -1;
  const store = compileStore(ctx, vars, pos);
  const pairs = compilePairLoop(ctx, s.x, vars, pos, compileExpr, compileStore);
  return (fr) => {
    const seq = pairs === undefined ? x(fr) : pairs.evaluate(fr);
    const thread = fr.thread;
    if (seq instanceof PairSeq) {
      const { first, second, length } = seq;
      const { storeFirst, storeSecond } = pairs as PairLoop;
      for (let i = 0; i < length; i++) {
        thread.checkStep();
        storeFirst(fr, first === undefined ? i : (first[i] as Value));
        storeSecond(fr, second[i] as Value);
        const c = body(fr);
        if (c !== NORMAL) {
          if (c === BREAK) break;
          if (c === RETURN) return RETURN;
        }
      }
      return NORMAL;
    }
    if (seq instanceof StarRange && localSlot >= 0) {
      const { start, step, length } = seq;
      const locals = fr.locals;
      for (let i = 0; i < length; i++) {
        thread.checkStep();
        locals[localSlot] = start + i * step;
        const c = body(fr);
        if (c !== NORMAL) {
          if (c === BREAK) break;
          if (c === RETURN) return RETURN;
        }
      }
      return NORMAL;
    }
    if (seq instanceof StarList) {
      const lock = !seq.frozen;
      if (lock) seq.itercount++;
      try {
        const elems = seq.elems;
        for (let i = 0; i < elems.length; i++) {
          thread.checkStep();
          store(fr, elems[i] as Value);
          const c = body(fr);
          if (c !== NORMAL) {
            if (c === BREAK) break;
            if (c === RETURN) return RETURN;
          }
        }
      } finally {
        if (lock) seq.itercount--;
      }
      return NORMAL;
    }
    let ctl: Control = NORMAL;
    try {
      forEachValue(thread, seq, (v) => {
        store(fr, v);
        const c = body(fr);
        if (c === BREAK) return false;
        if (c === RETURN) {
          ctl = RETURN;
          return false;
        }
        return true;
      });
    } catch (err) {
      annotate(err, fr, pos);
    }
    return ctl;
  };
}

function compileLoad(s: LoadStmt): StmtFn {
  const module = s.module;
  const bindings = s.to.map((to, i) => {
    if (to.binding === undefined) throw new Error(`internal error: unresolved load binding ${to.name}`);
    return { from: (s.from[i] ?? to).name, store: compileWrite(to.binding), pos: to.pos };
  });
  const pos = s.pos;
  return (fr) => {
    const loader = fr.module.loader;
    if (loader === undefined)
      annotate(new StarEvalError("load not implemented by this application"), fr, pos);
    let members: ReadonlyMap<string, Value> | Record<string, Value>;
    try {
      members = loader(fr.thread, module);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      annotate(new StarEvalError(`cannot load ${module}: ${msg}`), fr, pos);
    }
    for (const b of bindings) {
      const v = members instanceof Map ? members.get(b.from) : (members as Record<string, Value>)[b.from];
      if (v === undefined) {
        // Sorted, as upstream offers the module's StringDict.Keys().
        const names = (members instanceof Map ? [...members.keys()] : Object.keys(members)).sort();
        const hint = nearest(b.from, names);
        const msg = `load: name ${b.from} not found in module ${module}${hint ? ` (did you mean ${hint}?)` : ""}`;
        annotate(new StarEvalError(msg), fr, b.pos);
      }
      b.store(fr, v);
    }
    return NORMAL;
  };
}
