/**
 * Restricted tokens name their projects, and projects have no identity
 * but their name, so a name must never outlive its project in a token: a
 * token issued for a project that does not exist yet, or left naming a
 * deleted or renamed one, would reach whatever project an admin later
 * creates under that name. So (as LXD does for restricted certificates)
 * a token can only name existing projects, follows its project through a
 * rename, and loses it when it is deleted.
 *
 * The name is taken out of the tokens before the project changes and put
 * back (renamed) after: a crash in between leaves tokens with less access,
 * never with access to a project they were not given.
 */
import type { TokenStore } from "./token-store.js";

/** The first of `projects` that does not exist, if any. */
export async function missingProject(
  projects: readonly string[],
  exists: (name: string) => Promise<boolean>,
): Promise<string | undefined> {
  for (const project of projects) if (!(await exists(project))) return project;
  return undefined;
}

/**
 * Runs `change` (a rename or delete of `project`) with `project` taken out
 * of every restricted token first. After it succeeds, those tokens name
 * `renamedTo(result)` instead (null: nothing, the project is gone); when it
 * fails, they get `project` back.
 */
export async function changeProjectBindings<T>(
  tokens: TokenStore,
  project: string,
  change: () => Promise<T>,
  renamedTo: (result: T) => string | null,
): Promise<T> {
  const bound = (await tokens.list()).filter((t) => !t.admin && t.projects.includes(project));
  for (const token of bound) {
    await tokens.setProjects(
      token.id,
      token.projects.filter((p) => p !== project),
    );
  }
  let result: T;
  try {
    result = await change();
  } catch (error) {
    for (const token of bound) await tokens.setProjects(token.id, token.projects);
    throw error;
  }
  const next = renamedTo(result);
  for (const token of bound) {
    await tokens.setProjects(
      token.id,
      next === null
        ? token.projects.filter((p) => p !== project)
        : token.projects.map((p) => (p === project ? next : p)),
    );
  }
  return result;
}
