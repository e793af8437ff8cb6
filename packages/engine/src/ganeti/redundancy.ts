/**
 * Ganeti's global N+1 ("capacity checks"): after a placement every member
 * of the group must be able to fail. A failed member's mirrored primaries
 * run on their secondaries (the per-member reserve `checks.ts` keeps); its
 * other instances must be re-created on the remaining usable members,
 * largest first, each where it fits first, and only if the group's
 * instance policy admits it.
 */
import type { SnapshotCluster, SnapshotNode } from "./cluster.js";
import { isDedicated } from "./dedicated.js";
import { diskTotal, isMirrored, usesLocalStorage } from "./spec.js";

interface Need {
  memory: number;
  disk: number;
}

/** Room left on a node for instances of a failed peer: free memory minus its own failover reserve. */
const roomOf = (node: SnapshotNode) => node.freeMemory - node.reservedMemory;

function needsOf(node: SnapshotNode): Need[] {
  const needs: Need[] = [];
  for (const placed of node.primaries) {
    if (isMirrored(placed.spec.template)) continue;
    const disk = usesLocalStorage(placed.spec.template) ? diskTotal(placed.spec) : 0;
    needs.push({ memory: placed.spec.memory, disk });
  }
  return needs;
}

/** Whether `needs` fit on `others` first-fit, largest memory first. */
function reCreatable(needs: Need[], others: readonly SnapshotNode[]): boolean {
  const memory = others.map(roomOf);
  const disk = others.map((node) => node.freeDisk);
  needs.sort((a, b) => b.memory - a.memory);
  for (const need of needs) {
    let placed = false;
    for (let i = 0; i < others.length && !placed; i++) {
      if (memory[i]! - need.memory > 0 && (need.disk === 0 || disk[i]! - need.disk > 0)) {
        memory[i]! -= need.memory;
        disk[i]! -= need.disk;
        placed = true;
      }
    }
    if (!placed) return false;
  }
  return true;
}

/** Whether every usable member of `group` can fail without losing an instance. */
export function groupSurvivesAnyFailure(cluster: SnapshotCluster, group: string): boolean {
  const usable = cluster.nodesOf(group).filter((node) => node.input.usable);
  // Exclusive-storage ("dedicated") groups hand out whole disks: Ganeti checks them without N+1.
  if (isDedicated(usable)) return true;
  // The two roomiest members: a failed member's instances fit on the roomiest other one in the common case.
  let best: SnapshotNode | undefined;
  let second: SnapshotNode | undefined;
  for (const node of usable) {
    if (best === undefined || roomOf(node) > roomOf(best)) {
      second = best;
      best = node;
    } else if (second === undefined || roomOf(node) > roomOf(second)) second = node;
  }
  for (const node of usable) {
    // An instance the group's policy refuses cannot be re-created anywhere in it.
    if (node.unmovable > 0) return false;
    const memory = node.movableMemory;
    const disk = node.movableDisk;
    if (memory === 0 && disk === 0) continue;
    const other = node === best ? second : best;
    if (other !== undefined && roomOf(other) - memory > 0 && (disk === 0 || other.freeDisk - disk > 0))
      continue;
    const needs = needsOf(node);
    if (
      !reCreatable(
        needs,
        usable.filter((candidate) => candidate !== node),
      )
    )
      return false;
  }
  return true;
}
