/**
 * Provider-tree rules, pure over the providers as read: whether a new
 * parent would close a loop.
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
