/**
 * Ranking in dedicated groups (every member with exclusive storage: whole
 * disks handed out), Ganeti's "lost allocations": for each band of the
 * group's policy, largest first, how many instances of the band's minimum
 * size a member could still take, before and after the placement; the
 * member losing the fewest of the largest kind wins, then the one left
 * with the least disk (best fit). Small instances so go where they break
 * no room for big ones.
 */
import type { SnapshotNode } from "./cluster.js";
import type { InstancePolicy, SpecBound } from "./policy.js";

interface Room {
  memory: number;
  disk: number;
  spindles: number;
}

function fits(room: Room, min: SpecBound): number {
  const per = (free: number, need: number | undefined) =>
    need === undefined || need <= 0 ? Number.POSITIVE_INFINITY : Math.floor(free / need);
  const count = Math.min(
    per(room.memory, min.memorySize),
    per(room.disk, min.diskSize),
    per(room.spindles, min.spindleUse),
  );
  return Number.isFinite(count) ? Math.max(count, 0) : 0;
}

/** The ranking key of placing `memory`/`disk`/`spindles` on `node`: losses per band, largest band first, then disk left. */
export function lostAllocations(node: SnapshotNode, policy: InstancePolicy, taken: Room): number[] {
  const before: Room = { memory: node.freeMemory, disk: node.freeDisk, spindles: node.freeSpindles };
  const after: Room = {
    memory: before.memory - taken.memory,
    disk: before.disk - taken.disk,
    spindles: before.spindles - taken.spindles,
  };
  const bands = [...policy.bands].sort((a, b) => (b.min.memorySize ?? 0) - (a.min.memorySize ?? 0));
  return [...bands.map(({ min }) => fits(before, min) - fits(after, min)), after.disk];
}

/** Lexicographic order of two keys. */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export function isDedicated(nodes: readonly SnapshotNode[]): boolean {
  return nodes.length > 0 && nodes.every((node) => node.input.exclusiveStorage);
}
