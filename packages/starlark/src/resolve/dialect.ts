/**
 * Non-standard language features, named as go.starlark.net names them (syntax.FileOptions).
 * Every option defaults to false, which matches go.starlark.net's legacy defaults.
 */
export interface Dialect {
  /** The `set` built-in exists. */
  set?: boolean;
  /** `while` loops are allowed. */
  while?: boolean;
  /** Functions may call themselves, directly or indirectly. */
  recursion?: boolean;
  /** Top-level names may be reassigned (and are then only visible after their definition). */
  globalReassign?: boolean;
  /** `if`, `for` and `while` may appear at top level. */
  topLevelControl?: boolean;
  /** `load` binds global names rather than file-local ones (deprecated upstream). */
  loadBindsGlobally?: boolean;
}

export type ResolvedDialect = Required<Dialect>;

export function resolveDialect(d: Dialect | undefined): ResolvedDialect {
  return {
    set: d?.set ?? false,
    while: d?.while ?? false,
    recursion: d?.recursion ?? false,
    globalReassign: d?.globalReassign ?? false,
    topLevelControl: d?.topLevelControl ?? false,
    loadBindsGlobally: d?.loadBindsGlobally ?? false,
  };
}
