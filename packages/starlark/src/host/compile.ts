import { type CompileOptions, compileWithUniverse, type Program } from "../eval/program.js";
import { universe } from "../library/universe.js";
import type { ResolvedDialect } from "../resolve/dialect.js";
import type { Value } from "../values/index.js";

/** The universe depends only on whether `set` exists; build each variant once and share it. */
const universes = new Map<boolean, ReadonlyMap<string, Value>>();

function universeFor(dialect: ResolvedDialect): ReadonlyMap<string, Value> {
  let u = universes.get(dialect.set);
  if (u === undefined) {
    u = universe({ set: dialect.set });
    universes.set(dialect.set, u);
  }
  return u;
}

/**
 * Compiles Starlark source once. Throws StarlarkSyntaxErrors ({filename, line, col, msg}[])
 * for scan, parse and resolve errors. Run the result with `program.init(thread, predeclared)`.
 */
export function compile(source: string, opts: CompileOptions): Program {
  return compileWithUniverse(source, opts, universeFor);
}
