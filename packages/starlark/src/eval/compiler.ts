import type { FunctionNode } from "../syntax/ast.js";
import type { CompileContext } from "./context.js";
import type { Code } from "./function.js";
import { entryPosition } from "./instruction-position.js";
import { compileBlock } from "./stmt.js";

/** Compiles a def/lambda (or the module top level) into run-independent code. */
export function compileFunctionCode(ctx: CompileContext, fn: FunctionNode): Code {
  const numParams = fn.numPositional + fn.numKwonly;
  const numNamed = numParams + (fn.hasVarargs ? 1 : 0) + (fn.hasKwargs ? 1 : 0);
  const cellSlots: number[] = [];
  fn.locals.forEach((b, i) => {
    if (b.scope === "cell") cellSlots.push(i);
  });
  const code: Code = {
    name: fn.name,
    pos: fn.pos,
    entryPos: entryPosition(fn),
    filename: ctx.filename,
    numLocals: fn.locals.length,
    numPositional: fn.numPositional,
    numParams,
    numKwonly: fn.numKwonly,
    hasVarargs: fn.hasVarargs,
    hasKwargs: fn.hasKwargs,
    paramNames: fn.locals.slice(0, numNamed).map((b) => b.name),
    cellSlots,
    simple: !fn.hasVarargs && !fn.hasKwargs && fn.numKwonly === 0,
    recursionAllowed: ctx.dialect.recursion,
    body: () => 0,
    active: 0,
  };
  code.body = compileBlock(ctx, fn.body);
  return code;
}
