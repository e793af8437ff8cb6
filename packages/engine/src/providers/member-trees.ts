/**
 * Hands each member the child providers under its root (model/member-tree.ts),
 * from the engine's provider rows: every provider whose root is a member's
 * root provider and that has inventories, in uuid order. Rebuilt when the
 * provider rows or the members change; what the children hold is read live
 * from the ProviderModel, so usage changes need no rebuild.
 */
import type { ClusterModel } from "../model/cluster-model.js";
import { MemberTree, type ProviderUsed, type TreeProvider } from "../model/member-tree.js";
import type { ProviderRecord } from "../store/records.js";
import { memberOfRoot } from "./member-roots.js";

export function attachMemberTrees(
  model: ClusterModel,
  rows: readonly ProviderRecord[],
  used: ProviderUsed,
): void {
  for (const member of model.allMembers()) member.tree = undefined;
  const byRoot = new Map<string, TreeProvider[]>();
  const byUuid = new Map<string, ProviderRecord>();
  for (const row of rows) {
    byUuid.set(row.uuid, row);
    if (row.parentUuid === null || Object.keys(row.inventories).length === 0) continue;
    let tree = byRoot.get(row.rootUuid);
    if (tree === undefined) byRoot.set(row.rootUuid, (tree = []));
    tree.push({ uuid: row.uuid, inventories: row.inventories });
  }
  for (const [rootUuid, providers] of byRoot) {
    const root = byUuid.get(rootUuid);
    const member = root === undefined ? undefined : memberOfRoot(root, (name) => model.member(name));
    if (member === undefined) continue;
    providers.sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
    member.tree = new MemberTree(providers, used, model.treeHolds);
  }
}
