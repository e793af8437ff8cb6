import type { Arg, CallExpr, Comprehension, DictEntry, Expr, FunctionNode } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";
import {
  ALLOC,
  addBuiltinFrame,
  allocSlots,
  callValue,
  dictFromLiteral,
  getAttr,
  getIndex,
  MAX_LITERAL_DICT_KEYS,
  type MethodFn,
  methodOf,
  None,
  repr,
  StarBytes,
  StarDict,
  EvalError as StarEvalError,
  StarFloat,
  StarList,
  StarRange,
  StarTuple,
  slice,
  truth,
  tryIterate,
  typeName,
  unary,
  type Value,
} from "../values/index.js";
import { compileBinary } from "./binary.js";
import { compileFunctionCode } from "./compiler.js";
import type { CompileContext } from "./context.js";
import { annotate, claim } from "./errors.js";
import { compileFormatLiteral, parseSimpleFormat } from "./format-literal.js";
import type { Cell, ExprFn, Frame } from "./frame.js";
import { StarFunction } from "./function.js";
import { slicePosition } from "./instruction-position.js";
import { forEachValue } from "./iterate.js";
import { compileRead } from "./names.js";
import { compilePairLoop, type PairLoop, PairSeq } from "./pair-iteration.js";
import { compileStore } from "./store.js";

const NO_KWARGS: [string, Value][] = [];

export function compileExpr(ctx: CompileContext, e: Expr): ExprFn {
  switch (e.kind) {
    case "Literal": {
      const lit = e.literal;
      const v: Value =
        lit.type === "float"
          ? new StarFloat(lit.value)
          : lit.type === "bytes"
            ? new StarBytes(lit.value)
            : lit.value;
      return () => v;
    }
    case "Ident": {
      if (e.binding === undefined) throw new Error(`internal error: unresolved name ${e.name}`);
      return compileRead(ctx, e.binding, e.pos);
    }
    case "Paren":
      return compileExpr(ctx, e.x);
    case "List": {
      const elems = e.elems.map((x) => compileExpr(ctx, x));
      const cost = ALLOC.header + ALLOC.slot * elems.length;
      return (fr) => {
        const out = new Array<Value>(elems.length);
        for (let i = 0; i < elems.length; i++) out[i] = (elems[i] as ExprFn)(fr);
        fr.thread.alloc(cost);
        return new StarList(out);
      };
    }
    case "Tuple":
      return compileTupleOf(e.elems.map((x) => compileExpr(ctx, x)));
    case "Dict":
      return compileDict(ctx, e.entries, e.pos);
    case "Comprehension":
      return compileComprehension(ctx, e);
    case "Unary": {
      const x = compileExpr(ctx, e.x);
      const pos = e.pos;
      switch (e.op) {
        case "not":
          return (fr) => {
            const v = x(fr);
            return v === false ? true : v === true ? false : !truth(v);
          };
        case "-":
          return (fr) => {
            const v = x(fr);
            if (typeof v === "number") return 0 - v;
            if (v instanceof StarFloat) return new StarFloat(-v.value);
            try {
              return unary("-", v);
            } catch (err) {
              annotate(err, fr, pos);
            }
          };
        default: {
          const op = e.op;
          return (fr) => {
            const v = x(fr);
            try {
              return unary(op, v);
            } catch (err) {
              annotate(err, fr, pos);
            }
          };
        }
      }
    }
    case "Binary": {
      if (e.op === "%" && e.x.kind === "Literal" && e.x.literal.type === "string") {
        const parsed = parseSimpleFormat(e.x.literal.value);
        if (parsed !== undefined) {
          // A tuple display's elements are compiled once, either for the format or for the tuple.
          const display = e.y.kind === "Paren" ? e.y.x : e.y;
          if (display.kind === "Tuple" && display.elems.length === parsed.isString.length) {
            const elems = display.elems.map((el) => compileExpr(ctx, el));
            const tuple = compileTupleOf(elems);
            return compileFormatLiteral(e.x.literal.value, parsed, tuple, e.opPos, elems);
          }
          return compileFormatLiteral(e.x.literal.value, parsed, compileExpr(ctx, e.y), e.opPos);
        }
      }
      const x = compileExpr(ctx, e.x);
      const y = compileExpr(ctx, e.y);
      if (e.op === "and") {
        return (fr) => {
          const a = x(fr);
          return a === true || (a !== false && truth(a)) ? y(fr) : a;
        };
      }
      if (e.op === "or") {
        return (fr) => {
          const a = x(fr);
          return a === true || (a !== false && truth(a)) ? a : y(fr);
        };
      }
      return compileBinary(e.op, x, y, e.opPos);
    }
    case "Cond": {
      const c = compileExpr(ctx, e.cond);
      const t = compileExpr(ctx, e.ifTrue);
      const f = compileExpr(ctx, e.ifFalse);
      return (fr) => {
        const v = c(fr);
        return v === true || (v !== false && truth(v)) ? t(fr) : f(fr);
      };
    }
    case "Call":
      return compileCall(ctx, e);
    case "Dot": {
      const x = compileExpr(ctx, e.x);
      const name = e.name.name;
      const pos = e.dotPos;
      return (fr) => {
        const v = x(fr);
        try {
          return getAttr(fr.thread, v, name);
        } catch (err) {
          annotate(err, fr, pos);
        }
      };
    }
    case "Index": {
      const x = compileExpr(ctx, e.x);
      const pos = e.lbrack;
      if (e.index.kind === "Literal" && e.index.literal.type === "string") {
        // m["field"]: the commonest lookup in scriptlets (nested config dicts).
        const key = e.index.literal.value;
        let hint = 0;
        return (fr) => {
          const v = x(fr);
          if (v instanceof StarDict) {
            const at = v.positionOfString(key, hint);
            if (at >= 0) {
              hint = at;
              return v.valueAt(at);
            }
          }
          try {
            return getIndex(v, key);
          } catch (err) {
            annotate(err, fr, pos);
          }
        };
      }
      const k = compileExpr(ctx, e.index);
      return (fr) => {
        const v = x(fr);
        const key = k(fr);
        if (v instanceof StarList && typeof key === "number" && key >= 0 && key < v.elems.length) {
          return v.elems[key] as Value;
        }
        try {
          if (v instanceof StarDict) {
            const r = v.get(key);
            if (r !== undefined) return r;
          }
          return getIndex(v, key);
        } catch (err) {
          annotate(err, fr, pos);
        }
      };
    }
    case "Slice": {
      const x = compileExpr(ctx, e.x);
      const none: ExprFn = () => None;
      const lo = e.lo ? compileExpr(ctx, e.lo) : none;
      const hi = e.hi ? compileExpr(ctx, e.hi) : none;
      const step = e.step ? compileExpr(ctx, e.step) : none;
      const pos = slicePosition(e);
      return (fr) => {
        const v = x(fr);
        const a = lo(fr);
        const b = hi(fr);
        const c = step(fr);
        try {
          return slice(v, a, b, c, fr.thread);
        } catch (err) {
          annotate(err, fr, pos);
        }
      };
    }
    case "Lambda":
      return compileMakeFunction(ctx, e.fn);
  }
}

/** A tuple display from its compiled elements. */
function compileTupleOf(elems: ExprFn[]): ExprFn {
  const cost = ALLOC.header + ALLOC.slot * elems.length;
  if (elems.length === 2) {
    const [a, b] = elems as [ExprFn, ExprFn];
    return (fr) => {
      const t = new StarTuple([a(fr), b(fr)]);
      fr.thread.alloc(cost);
      return t;
    };
  }
  return (fr) => {
    const out = new Array<Value>(elems.length);
    for (let i = 0; i < elems.length; i++) out[i] = (elems[i] as ExprFn)(fr);
    fr.thread.alloc(cost);
    return new StarTuple(out);
  };
}

function compileDict(ctx: CompileContext, entries: DictEntry[], pos: Position): ExprFn {
  const keys = entries.map((en) => compileExpr(ctx, en.key));
  const values = entries.map((en) => compileExpr(ctx, en.value));
  const positions = entries.map((en) => en.pos);
  const general: ExprFn = (fr) => {
    const d = new StarDict();
    fr.thread.alloc(ALLOC.header); // each entry is charged as it is inserted
    for (let i = 0; i < keys.length; i++) {
      const k = (keys[i] as ExprFn)(fr);
      const v = (values[i] as ExprFn)(fr);
      try {
        const before = d.len();
        d.setKey(k, v, fr.thread);
        if (d.len() === before) throw new StarEvalError(`duplicate key: ${repr(k)}`);
      } catch (err) {
        annotate(err, fr, positions[i] ?? pos);
      }
    }
    return d;
  };
  const literalKeys = distinctStringLiteralKeys(entries);
  if (literalKeys === undefined) return general;
  // {"name": x, "zone": y}: keys known distinct at compile time, so the dict shares this
  // literal's keys array and gets an exact-size values array. Evaluating the (constant) keys had
  // no effects to preserve, and a literal over the size limit takes the general path, which
  // reports the limit at the same key.
  const n = literalKeys.length;
  // Built by push (not new Array(n)), so that its copies are packed arrays at their exact size.
  const template: Value[] = [];
  for (let i = 0; i < n; i++) template.push(None);
  const cost = ALLOC.header + ALLOC.entry * n;
  return (fr) => {
    if (n > fr.thread.limits.maxCollectionSize) return general(fr);
    const vals = template.slice();
    for (let i = 0; i < n; i++) vals[i] = (values[i] as ExprFn)(fr);
    fr.thread.alloc(cost);
    return dictFromLiteral(literalKeys, vals);
  };
}

/** The keys of a dict literal when all are distinct string literals (and few enough), else undefined. */
function distinctStringLiteralKeys(entries: DictEntry[]): string[] | undefined {
  if (entries.length === 0 || entries.length > MAX_LITERAL_DICT_KEYS) return undefined;
  const keys: string[] = [];
  for (const en of entries) {
    const k = en.key;
    if (k.kind !== "Literal" || k.literal.type !== "string") return undefined;
    if (keys.includes(k.literal.value)) return undefined;
    keys.push(k.literal.value);
  }
  return keys;
}

/** Evaluates `def`/`lambda`: defaults now, in the enclosing frame; captured cells by reference. */
export function compileMakeFunction(ctx: CompileContext, fn: FunctionNode): ExprFn {
  const code = compileFunctionCode(ctx, fn);
  const defaultFns: (ExprFn | undefined)[] = [];
  for (const p of fn.params) {
    if (p.kind === "required") defaultFns.push(undefined);
    else if (p.kind === "optional") defaultFns.push(compileExpr(ctx, p.default));
  }
  const captures = fn.freeVars.map((b) => ({ fromCell: b.scope === "cell", index: b.index }));
  return (fr) => {
    const defaults = defaultFns.map((d) => (d === undefined ? undefined : d(fr)));
    const cells = captures.map((c) =>
      c.fromCell ? (fr.locals[c.index] as Cell) : ((fr.fn as StarFunction).freevars[c.index] as Cell),
    );
    return new StarFunction(code, defaults, cells, fr.module);
  };
}

function compileCall(ctx: CompileContext, e: CallExpr): ExprFn {
  if (e.fn.kind === "Dot") return compileMethodCall(ctx, e, e.fn);
  const fnExpr = compileExpr(ctx, e.fn);
  const lparen = e.lparen;
  if (e.args.every((a) => a.kind === "positional")) {
    const argFns = e.args.map((a) => compileExpr(ctx, a.value));
    const n = argFns.length;
    return (fr) => {
      const f = fnExpr(fr);
      if (f instanceof StarFunction && f.code.simple && f.code.numParams === n) {
        const locals = new Array<Value | Cell | undefined>(f.code.numLocals);
        for (let i = 0; i < n; i++) locals[i] = (argFns[i] as ExprFn)(fr);
        fr.pos = lparen;
        try {
          return f.invoke(fr.thread, locals);
        } catch (err) {
          claim(err, fr);
        }
      }
      const args = new Array<Value>(n);
      for (let i = 0; i < n; i++) args[i] = (argFns[i] as ExprFn)(fr);
      fr.pos = lparen;
      try {
        return callValue(fr.thread, f, args, NO_KWARGS);
      } catch (err) {
        claim(err, fr);
      }
    };
  }
  const compiled = compileArgs(ctx, e.args);
  return (fr) => {
    const f = fnExpr(fr);
    const [args, kwargs] = evalArgs(fr, compiled, lparen);
    fr.pos = lparen;
    try {
      return callValue(fr.thread, f, args, kwargs);
    } catch (err) {
      claim(err, fr);
    }
  };
}

/**
 * x.f(args): built-in methods are called directly with their receiver (no bound-method
 * allocation); anything else (host attributes, fields holding functions) goes through getattr.
 */
function compileMethodCall(ctx: CompileContext, e: CallExpr, dot: Extract<Expr, { kind: "Dot" }>): ExprFn {
  const recv = compileExpr(ctx, dot.x);
  const name = dot.name.name;
  const dotPos = dot.dotPos;
  const lparen = e.lparen;
  // Inline cache: the built-in method for the receiver type last seen at this call site.
  let cachedType = "";
  let cachedMethod: MethodFn | undefined;
  /**
   * The attribute is looked up before the arguments are evaluated, as upstream evaluates `x.f`
   * first: a missing method is reported (at the dot) before any argument runs. Returns the
   * built-in method, or the attribute's value to call.
   */
  const lookup = (fr: Frame, x: Value): MethodFn | Value => {
    const type = typeName(x);
    if (type !== cachedType) {
      cachedMethod = methodOf(type, name);
      cachedType = type;
    }
    if (cachedMethod !== undefined) return cachedMethod;
    try {
      return getAttr(fr.thread, x, name);
    } catch (err) {
      annotate(err, fr, dotPos);
    }
  };
  const invoke = (
    fr: Frame,
    x: Value,
    m: MethodFn | Value,
    args: Value[],
    kwargs: [string, Value][],
  ): Value => {
    fr.pos = lparen;
    if (typeof m === "function") {
      try {
        return m(fr.thread, x, args, kwargs);
      } catch (err) {
        claim(addBuiltinFrame(err, name), fr);
      }
    }
    try {
      return callValue(fr.thread, m as Value, args, kwargs);
    } catch (err) {
      claim(err, fr);
    }
  };
  if (e.args.every((a) => a.kind === "positional")) {
    const fns = e.args.map((a) => compileExpr(ctx, a.value));
    const n = fns.length;
    if (n === 0)
      return (fr) => {
        const x = recv(fr);
        return invoke(fr, x, lookup(fr, x), [], NO_KWARGS);
      };
    if (n === 1) {
      const a0 = fns[0] as ExprFn;
      return (fr) => {
        const x = recv(fr);
        const m = lookup(fr, x);
        return invoke(fr, x, m, [a0(fr)], NO_KWARGS);
      };
    }
    return (fr) => {
      const x = recv(fr);
      const m = lookup(fr, x);
      const args = new Array<Value>(n);
      for (let i = 0; i < n; i++) args[i] = (fns[i] as ExprFn)(fr);
      return invoke(fr, x, m, args, NO_KWARGS);
    };
  }
  const compiled = compileArgs(ctx, e.args);
  return (fr) => {
    const x = recv(fr);
    const m = lookup(fr, x);
    const [args, kwargs] = evalArgs(fr, compiled, lparen);
    return invoke(fr, x, m, args, kwargs);
  };
}

/** The compiled arguments of a call that has named, `*` or `**` arguments. */
interface CompiledArgs {
  /** Positional and named arguments in source order. */
  readonly plain: readonly { readonly name: string | undefined; readonly fn: ExprFn }[];
  readonly star: ExprFn | undefined;
  readonly starstar: ExprFn | undefined;
}

function compileArgs(ctx: CompileContext, argList: readonly Arg[]): CompiledArgs {
  const plain: { name: string | undefined; fn: ExprFn }[] = [];
  let star: ExprFn | undefined;
  let starstar: ExprFn | undefined;
  for (const a of argList) {
    const fn = compileExpr(ctx, a.value);
    if (a.kind === "star") star = fn;
    else if (a.kind === "starstar") starstar = fn;
    else plain.push({ name: a.kind === "named" ? a.name.name : undefined, fn });
  }
  return { plain, star, starstar };
}

/**
 * Evaluates a call's arguments as go.starlark.net does: positional and named ones in source
 * order, then `*args`, then `**kwargs`; then checks the `**` mapping before the `*` iterable,
 * reporting either at the call's parenthesis.
 */
function evalArgs(fr: Frame, c: CompiledArgs, lparen: Position): [Value[], [string, Value][]] {
  const args: Value[] = [];
  const kwargs: [string, Value][] = [];
  for (const { name, fn } of c.plain) {
    const v = fn(fr);
    if (name === undefined) args.push(v);
    else kwargs.push([name, v]);
  }
  const starValue = c.star === undefined ? undefined : c.star(fr);
  const starstarValue = c.starstar === undefined ? undefined : c.starstar(fr);
  if (starstarValue !== undefined) {
    if (!(starstarValue instanceof StarDict)) {
      annotate(
        new StarEvalError(`argument after ** must be a mapping, not ${typeName(starstarValue)}`),
        fr,
        lparen,
      );
    }
    const items = starstarValue.ht.entries();
    for (const [k] of items) {
      if (typeof k !== "string")
        annotate(new StarEvalError(`keywords must be strings, not ${typeName(k)}`), fr, lparen);
    }
    for (const item of items) kwargs.push(item as [string, Value]);
  }
  if (starValue !== undefined) {
    const it = typeof starValue === "string" ? undefined : tryIterate(starValue);
    if (it === undefined) {
      annotate(
        new StarEvalError(`argument after * must be iterable, not ${typeName(starValue)}`),
        fr,
        lparen,
      );
    }
    try {
      for (let x = it.next(); x !== undefined; x = it.next()) args.push(x);
    } finally {
      it.done();
    }
  }
  return [args, kwargs];
}

/** Adds the comprehension's body to the accumulator (a list's elements or a dict). */
type Emit = (fr: Frame, out: Value[] & StarDict) => void;

/** [body for ... if ...] and {k: v for ...}: nested loops writing into one accumulator. */
function compileComprehension(ctx: CompileContext, e: Comprehension): ExprFn {
  let emit: (fr: Frame, out: never) => void;
  if (e.body.kind === "DictEntry") {
    const k = compileExpr(ctx, e.body.key);
    const v = compileExpr(ctx, e.body.value);
    const pos = e.body.pos;
    emit = (fr: Frame, out: StarDict) => {
      const key = k(fr);
      const val = v(fr);
      try {
        out.setKey(key, val, fr.thread);
      } catch (err) {
        annotate(err, fr, pos);
      }
    };
  } else {
    const body = compileExpr(ctx, e.body);
    emit = (fr: Frame, out: Value[]) => {
      out.push(body(fr));
      fr.thread.alloc(ALLOC.slot);
      if ((out.length & 0xfff) === 0) fr.thread.checkCollectionSize(out.length);
    };
  }
  for (let i = e.clauses.length - 1; i >= 0; i--) {
    const clause = e.clauses[i];
    if (clause === undefined) continue;
    const inner = emit as Emit;
    if (clause.kind === "IfClause") {
      const cond = compileExpr(ctx, clause.cond);
      emit = (fr: Frame, out: Value[] & StarDict) => {
        const c = cond(fr);
        if (c === true || (c !== false && truth(c))) inner(fr, out);
      };
    } else {
      emit = compileComprehensionFor(ctx, clause, inner);
    }
  }
  const run = emit as Emit;
  const [only] = e.clauses;
  if (!e.curly && e.clauses.length === 1 && only?.kind === "ForClause" && e.body.kind !== "DictEntry") {
    return compileMapComprehension(ctx, only, compileExpr(ctx, e.body), run);
  }
  if (e.curly) {
    return (fr) => {
      const d = new StarDict();
      fr.thread.alloc(ALLOC.header);
      run(fr, d as Value[] & StarDict);
      return d;
    };
  }
  return (fr) => {
    const out: Value[] = [];
    fr.thread.alloc(ALLOC.header);
    run(fr, out as Value[] & StarDict);
    return new StarList(out);
  };
}

/**
 * [body for x in seq] with a single clause: the result length is known for ranges and lists,
 * so the array is allocated once at its final size instead of growing element by element.
 */
function compileMapComprehension(
  ctx: CompileContext,
  clause: Extract<Comprehension["clauses"][number], { kind: "ForClause" }>,
  body: ExprFn,
  general: Emit,
): ExprFn {
  const x = compileExpr(ctx, clause.x);
  const store = compileStore(ctx, clause.vars, clause.pos);
  const vars = clause.vars;
  const slot = vars.kind === "Ident" && vars.binding?.scope === "local" ? vars.binding.index : -1;
  const pairs = compilePairLoop(ctx, clause.x, vars, clause.pos, compileExpr, compileStore);
  return (fr) => {
    const seq = pairs === undefined ? x(fr) : pairs.evaluate(fr);
    const thread = fr.thread;
    if (seq instanceof PairSeq) {
      const { first, second, length } = seq;
      const { storeFirst, storeSecond } = pairs as PairLoop;
      allocSlots(thread, length);
      const out = new Array<Value>(length);
      for (let i = 0; i < length; i++) {
        thread.checkStep();
        storeFirst(fr, first === undefined ? i : (first[i] as Value));
        storeSecond(fr, second[i] as Value);
        out[i] = body(fr);
      }
      return new StarList(out);
    }
    if (slot >= 0 && seq instanceof StarRange) {
      const { start, step, length } = seq;
      allocSlots(thread, length);
      const out = new Array<Value>(length);
      const locals = fr.locals;
      for (let i = 0; i < length; i++) {
        thread.checkStep();
        locals[slot] = start + i * step;
        out[i] = body(fr);
      }
      return new StarList(out);
    }
    if (seq instanceof StarList || seq instanceof StarTuple) {
      const elems = seq.elems;
      const n = elems.length;
      allocSlots(thread, n);
      const out = new Array<Value>(n);
      const lock = seq instanceof StarList && !seq.frozen;
      if (lock) seq.itercount++;
      try {
        for (let i = 0; i < n; i++) {
          thread.checkStep();
          store(fr, elems[i] as Value);
          out[i] = body(fr);
        }
      } finally {
        if (lock) seq.itercount--;
      }
      return new StarList(out);
    }
    const out: Value[] = [];
    thread.alloc(ALLOC.header);
    general(fr, out as Value[] & StarDict);
    return new StarList(out);
  };
}

/** One `for` clause, with allocation-free fast paths for ranges and lists bound to a plain local. */
function compileComprehensionFor(
  ctx: CompileContext,
  clause: Extract<Comprehension["clauses"][number], { kind: "ForClause" }>,
  inner: Emit,
): Emit {
  const x = compileExpr(ctx, clause.x);
  const store = compileStore(ctx, clause.vars, clause.pos);
  const vars = clause.vars;
  const slot = vars.kind === "Ident" && vars.binding?.scope === "local" ? vars.binding.index : -1;
  const pos = clause.pos;
  const pairs = compilePairLoop(ctx, clause.x, vars, clause.pos, compileExpr, compileStore);
  return (fr, out) => {
    const seq = pairs === undefined ? x(fr) : pairs.evaluate(fr);
    const thread = fr.thread;
    if (seq instanceof PairSeq) {
      const { first, second, length } = seq;
      const { storeFirst, storeSecond } = pairs as PairLoop;
      for (let i = 0; i < length; i++) {
        thread.checkStep();
        storeFirst(fr, first === undefined ? i : (first[i] as Value));
        storeSecond(fr, second[i] as Value);
        inner(fr, out);
      }
      return;
    }
    if (slot >= 0 && seq instanceof StarRange) {
      const { start, step, length } = seq;
      const locals = fr.locals;
      for (let i = 0; i < length; i++) {
        thread.checkStep();
        locals[slot] = start + i * step;
        inner(fr, out);
      }
      return;
    }
    if (seq instanceof StarList) {
      const lock = !seq.frozen;
      if (lock) seq.itercount++;
      try {
        const elems = seq.elems;
        for (let i = 0; i < elems.length; i++) {
          thread.checkStep();
          store(fr, elems[i] as Value);
          inner(fr, out);
        }
      } finally {
        if (lock) seq.itercount--;
      }
      return;
    }
    try {
      forEachValue(thread, seq, (v) => {
        store(fr, v);
        inner(fr, out);
        return true;
      });
    } catch (err) {
      annotate(err, fr, pos);
    }
  };
}
