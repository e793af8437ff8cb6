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

import type { TokenStore } from "../auth/token-store.js";
import type { TrustStore } from "./trust-store.js";

/** Whatever is restricted to named projects: API tokens and restricted client certificates. */
export interface ProjectBound {
  /** Those restricted to some projects: an id and their projects. */
  restricted(): Promise<{ id: string; projects: readonly string[] }[]>;
  setProjects(id: string, projects: string[]): Promise<boolean>;
}

export function tokenBindings(tokens: TokenStore): ProjectBound {
  return {
    restricted: async () => (await tokens.list()).filter((t) => !t.admin),
    setProjects: (id, projects) => tokens.setProjects(id, projects),
  };
}

/** Restricted certificates are bound as LXD binds them: to the project, not its name. */
export function certificateBindings(trust: TrustStore): ProjectBound {
  return {
    restricted: async () =>
      (await trust.listCertificates())
        .filter((c) => c.restricted)
        .map((c) => ({ id: c.fingerprint, projects: c.projects })),
    setProjects: (fingerprint, projects) => trust.setCertificateProjects(fingerprint, projects),
  };
}

/**
 * Pending certificate-add tokens: a restricted one becomes a certificate of
 * its projects when redeemed, so it follows them as that certificate would.
 * Expired tokens are not listed and need no update.
 */
export function pendingTokenBindings(trust: TrustStore): ProjectBound {
  return {
    restricted: async () =>
      (await trust.listTokens(new Date().toISOString()))
        .filter((t) => t.restricted)
        .map((t) => ({ id: t.id, projects: t.projects })),
    setProjects: (id, projects) => trust.setTokenProjects(id, projects),
  };
}

/** Whoever is bound to projects: restricted API tokens, client certificates and pending certificate-add tokens. */
export function projectHolders(tokens: TokenStore, trust: TrustStore): ProjectBound[] {
  return [tokenBindings(tokens), certificateBindings(trust), pendingTokenBindings(trust)];
}

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
 * of every restricted token and certificate (`holders`) first. After it
 * succeeds, they name `renamedTo(result)` instead (null: nothing, the
 * project is gone); when it fails, they get `project` back.
 */
export async function changeProjectBindings<T>(
  holders: readonly ProjectBound[],
  project: string,
  change: () => Promise<T>,
  renamedTo: (result: T) => string | null,
): Promise<T> {
  const bound: { holder: ProjectBound; id: string; projects: readonly string[] }[] = [];
  for (const holder of holders)
    for (const one of await holder.restricted())
      if (one.projects.includes(project)) bound.push({ holder, id: one.id, projects: one.projects });
  for (const one of bound) {
    await one.holder.setProjects(
      one.id,
      one.projects.filter((p) => p !== project),
    );
  }
  let result: T;
  try {
    result = await change();
  } catch (error) {
    for (const one of bound) await one.holder.setProjects(one.id, [...one.projects]);
    throw error;
  }
  const next = renamedTo(result);
  for (const one of bound) {
    await one.holder.setProjects(
      one.id,
      next === null
        ? one.projects.filter((p) => p !== project)
        : one.projects.map((p) => (p === project ? next : p)),
    );
  }
  return result;
}
