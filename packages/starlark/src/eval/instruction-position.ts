/**
 * Positions that go.starlark.net's compiler gives two kinds of instruction, found from the
 * syntax tree. Its compiler records a source position only on the instruction emitted right
 * after a position is set (a name lookup other than a universal one, an operator, a call, an
 * index, a `for`, ...); an instruction without one reports the position of the nearest
 * positioned instruction before it in the code.
 *
 * - Where a call's frame points before its body runs: argument-binding and recursion errors are
 *   reported inside the callee's frame, at its first instruction's position if it has one,
 *   otherwise the `def`/`lambda` itself.
 * - Where a slice's error points: the slice sets its `[` position before its operand and
 *   indices are compiled, so the operation reports the last position they set, usually the
 *   operand's name (`x[::0]` fails at `x`), and `[` only when nothing in them set one.
 */
import type { DictEntry, Expr, FunctionNode, Stmt } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";

/** The position of the first evaluated leaf of e that carries one, or undefined for a literal. */
function firstPosition(e: Expr): Position | undefined {
  switch (e.kind) {
    case "Ident":
      return e.binding?.scope === "universal" ? undefined : e.pos;
    case "Literal":
      return undefined;
    case "Paren":
      return firstPosition(e.x);
    case "List":
    case "Tuple": {
      const first = e.elems[0];
      return first === undefined ? undefined : firstPosition(first);
    }
    case "Dict":
    case "Comprehension":
      return undefined; // the dict or accumulator is made first, without a position
    case "Unary":
    case "Binary":
    case "Dot":
    case "Index":
      return firstPosition(e.x);
    case "Cond":
      return firstPosition(e.cond);
    case "Call":
      return firstPosition(e.fn);
    case "Slice":
      // The slice's position is set before its operand is evaluated, so an unpositioned first
      // instruction of the operand takes it.
      return firstPosition(e.x) ?? e.lbrack;
    case "Lambda":
      return e.fn.pos;
  }
}

/** The position of the first instruction of s, or undefined when it emits none or an unpositioned one. */
function statementPosition(s: Stmt): Position | undefined | "empty" {
  switch (s.kind) {
    case "ExprStmt":
      return firstPosition(s.x);
    case "Return":
      return s.result === undefined ? undefined : firstPosition(s.result);
    case "Assign":
      if (s.op === "=") return firstPosition(s.rhs);
      return firstPosition(s.lhs);
    case "If":
    case "While":
      return firstPosition(s.cond);
    case "For":
      return firstPosition(s.x);
    case "Def":
      return s.fn.pos;
    case "Load":
      return s.pos;
    case "Branch":
      return s.token === "pass" ? "empty" : undefined;
  }
}

/** The frame position of a call to `fn` before its body runs. */
export function entryPosition(fn: FunctionNode): Position {
  for (const s of fn.body) {
    const p = statementPosition(s);
    if (p === "empty") continue;
    return p ?? fn.pos;
  }
  return fn.pos;
}

/** The last position set while compiling e (in the compiler's emission order), if any. */
function lastPosition(e: Expr | DictEntry): Position | undefined {
  switch (e.kind) {
    case "Ident":
      return e.binding?.scope === "universal" ? undefined : e.pos;
    case "Literal":
      return undefined;
    case "Paren":
      return lastPosition(e.x);
    case "List":
    case "Tuple":
      return lastOf(e.elems);
    case "Dict":
    case "DictEntry": {
      // Each entry is inserted at its colon's position, after its key and value.
      if (e.kind === "DictEntry") return e.pos;
      const last = e.entries[e.entries.length - 1];
      return last === undefined ? undefined : last.pos;
    }
    case "Comprehension": {
      // The body is emitted last (inside the loops); the loops' closing instructions carry none.
      const body = lastPosition(e.body);
      if (body !== undefined) return body;
      for (let i = e.clauses.length - 1; i >= 0; i--) {
        const c = e.clauses[i];
        if (c === undefined) continue;
        if (c.kind === "ForClause") return c.pos;
        const p = lastPosition(c.cond);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    case "Unary":
      return e.pos;
    case "Binary":
      if (e.op === "and" || e.op === "or") return lastPosition(e.y) ?? lastPosition(e.x);
      if (e.op === "+") return plusPosition(e);
      return e.opPos;
    case "Cond":
      return lastPosition(e.ifFalse) ?? lastPosition(e.ifTrue) ?? lastPosition(e.cond);
    case "Call":
      return e.lparen;
    case "Dot":
      return e.dotPos;
    case "Index":
      return e.lbrack;
    case "Slice":
      return slicePosition(e);
    case "Lambda": {
      // Its defaults are evaluated after the position of the lambda is set.
      const defaults: Expr[] = [];
      for (const p of e.fn.params) if (p.kind === "optional") defaults.push(p.default);
      return lastOf(defaults) ?? e.fn.pos;
    }
  }
}

function lastOf(es: readonly Expr[]): Position | undefined {
  for (let i = es.length - 1; i >= 0; i--) {
    const p = lastPosition(es[i] as Expr);
    if (p !== undefined) return p;
  }
  return undefined;
}

function unparen(e: Expr): Expr {
  return e.kind === "Paren" ? unparen(e.x) : e;
}

/** What go.starlark.net's compiler folds in a chain of `+`: adjacent string, bytes, list or tuple displays. */
function addable(e: Expr): string | undefined {
  if (e.kind === "Literal")
    return e.literal.type === "string" || e.literal.type === "bytes" ? e.literal.type : undefined;
  if (e.kind === "List" || e.kind === "Tuple") return e.kind;
  return undefined;
}

/**
 * `a + b + ...` is compiled as one chain of summands, adjacent displays of one kind folded into
 * one; each remaining `+` sets its position, so the chain ends at its last `+`, or, when
 * everything folded into one display, at that display's last element's position.
 */
function plusPosition(e: Extract<Expr, { kind: "Binary" }>): Position | undefined {
  const summands: { x: Expr; plusPos: Position | undefined }[] = [];
  for (let plus = e; ; ) {
    summands.push({ x: unparen(plus.y), plusPos: plus.opPos });
    const left = unparen(plus.x);
    if (left.kind !== "Binary" || left.op !== "+") {
      summands.push({ x: left, plusPos: undefined });
      break;
    }
    plus = left;
  }
  summands.reverse();
  let runs = 0;
  let lastRun: Expr[] = [];
  for (let i = 0; i < summands.length; ) {
    const kind = addable((summands[i] as { x: Expr }).x);
    let j = i + 1;
    if (kind !== undefined)
      while (j < summands.length && addable((summands[j] as { x: Expr }).x) === kind) j++;
    lastRun = summands.slice(i, j).map((s) => s.x);
    runs++;
    i = j;
  }
  if (runs > 1) return e.opPos;
  return lastOf(lastRun.flatMap((x) => (x.kind === "List" || x.kind === "Tuple" ? x.elems : [x])));
}

/** The position a slice operation reports its errors at (see the module comment). */
export function slicePosition(e: Extract<Expr, { kind: "Slice" }>): Position {
  for (const part of [e.step, e.hi, e.lo, e.x]) {
    const p = part === undefined ? undefined : lastPosition(part);
    if (p !== undefined) return p;
  }
  return e.lbrack;
}
