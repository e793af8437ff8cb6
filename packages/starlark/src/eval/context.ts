import type { ResolvedDialect } from "../resolve/dialect.js";
import type { Value } from "../values/index.js";

/** What compiling one file needs to know besides the syntax tree. */
export interface CompileContext {
  readonly filename: string;
  readonly dialect: ResolvedDialect;
  readonly universe: ReadonlyMap<string, Value>;
  /** Predeclared name -> slot in ModuleState.predeclared. */
  readonly predeclaredIndex: Map<string, number>;
}
