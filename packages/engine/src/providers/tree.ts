/**
 * Provider-tree rules, pure over the providers as read: whether a new
 * parent would close a loop, whether providers share one subtree.
 */
import type { ProviderRecord } from "../store/records.js";

/** True when making `parentUuid` the parent of `uuid` would put `uuid` above itself. */
export function wouldLoop(
  byUuid: ReadonlyMap<string, ProviderRecord>,
  uuid: string,
  parentUuid: string,
): boolean {
  let cursor: string | null = parentUuid;
  const seen = new Set<string>();
  while (cursor !== null && !seen.has(cursor)) {
    if (cursor === uuid) return true;
    seen.add(cursor);
    cursor = byUuid.get(cursor)?.parentUuid ?? null;
  }
  return false;
}

/** The provider and its ancestors up to the root. */
function lineage(byUuid: ReadonlyMap<string, ProviderRecord>, uuid: string): Set<string> {
  const out = new Set<string>();
  let cursor: string | null = uuid;
  while (cursor !== null && !out.has(cursor)) {
    out.add(cursor);
    cursor = byUuid.get(cursor)?.parentUuid ?? null;
  }
  return out;
}

/**
 * Placement's `same_subtree`: one of the providers is an ancestor of (or
 * is) every other one, so all of them hang under it.
 */
export function inOneSubtree(uuids: readonly string[], byUuid: ReadonlyMap<string, ProviderRecord>): boolean {
  if (uuids.length <= 1) return true;
  const lineages = uuids.map((uuid) => lineage(byUuid, uuid));
  return uuids.some((candidate) => lineages.every((line) => line.has(candidate)));
}
