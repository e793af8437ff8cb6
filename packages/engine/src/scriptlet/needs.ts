/**
 * Which builtins a scriptlet can reach, read from its source. Starlark has
 * no `getattr` on modules, no `globals()` and no `eval`, so a program can
 * only reach a predeclared builtin by writing its name as an identifier:
 * a whole-word match anywhere (a call, an alias, an argument) is sound; a
 * name in a comment or string only costs a needless preload.
 */

/** Does `source` mention any of `names` as a whole identifier? (`\b` counts `_` as a word character.) */
export function mentionsBuiltin(source: string, names: readonly string[]): boolean {
  return new RegExp(`\\b(?:${names.join("|")})\\b`).test(source);
}

/** The scriptlet can read instance lists (`get_instances`, or `get_project`'s `used_by`). */
export function needsInstanceList(source: string): boolean {
  return mentionsBuiltin(source, ["get_instances", "get_project"]);
}

/** The scriptlet can read members' resources (a worker then mirrors the candidates' resources too). */
export function needsMemberResources(source: string): boolean {
  return mentionsBuiltin(source, ["get_cluster_member_resources"]);
}
