/**
 * Which builtins a scriptlet can reach, read from its source. Starlark has
 * no `getattr` on modules, no `globals()` and no `eval`, so a program can
 * only reach a predeclared builtin by writing its name as an identifier:
 * a whole-word match anywhere (a call, an alias, an argument) is sound; a
 * name in a comment or string only costs a needless preload.
 */

/**
 * Does `source` mention any of `names` as a whole identifier? (`\b` counts
 * `_` as a word character.) The last source's answer is kept: every
 * placement asks about the configured scriptlet, the same string each
 * time, and building and running the expression cost ~5 us of a 0.4 ms
 * scriptlet placement at 1,000 members (CPU profile, issue #30).
 */
function mentionsAny(names: readonly string[]): (source: string) => boolean {
  const pattern = new RegExp(`\\b(?:${names.join("|")})\\b`);
  let lastSource: string | undefined;
  let lastAnswer = false;
  return (source) => {
    if (source !== lastSource) {
      lastAnswer = pattern.test(source);
      lastSource = source;
    }
    return lastAnswer;
  };
}

/** The scriptlet can read instance lists (`get_instances`, or `get_project`'s `used_by`). */
export const needsInstanceList = mentionsAny(["get_instances", "get_project"]);

/** The scriptlet can read members' resources (a worker then mirrors the candidates' resources too). */
export const needsMemberResources = mentionsAny(["get_cluster_member_resources"]);
