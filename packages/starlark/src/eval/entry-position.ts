/**
 * Where a call's frame points before its body runs. go.starlark.net reports argument-binding
 * and recursion errors inside the callee's frame, whose position is that of the function's
 * first instruction when that instruction carries one (a name lookup, an operator, a nested
 * def, ...), and otherwise the `def`/`lambda` itself. This finds the same position from the
 * syntax tree by following the evaluation order of the first statement that emits code.
 */
import type { Expr, FunctionNode, Stmt } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";

/** The position of the first evaluated leaf of e that carries one, or undefined for a literal. */
function firstPosition(e: Expr): Position | undefined {
  switch (e.kind) {
    case "Ident":
      return e.pos;
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
