/**
 * Incus's load score of a member for automatic rebalancing
 * (`calculateScore` in incusd's api_cluster_rebalance.go): the mean of
 * its memory and CPU use in percent, each truncated to an integer, as is
 * the mean. Incus measures used memory and the 1-minute load average;
 * Berth is the placement ledger, not the hypervisor, so it takes what
 * instances hold there: MEMORY_MB and VCPU in use over the member's
 * physical amounts (inventory total less reserved, before any allocation
 * ratio). A member without one of the two inventories scores 0 on it.
 */
import type { MemberState } from "../model/member-state.js";

export interface MemberUsage {
  memoryUsed: number;
  memoryTotal: number;
  cpuUsed: number;
  cpuTotal: number;
}

/** What a member's instances hold of its memory and CPUs. */
export function usageOf(member: MemberState): MemberUsage {
  const physical = (resourceClass: string) => {
    const inventory = member.inventories[resourceClass];
    return inventory === undefined ? 0 : Math.max(0, inventory.total - inventory.reserved);
  };
  return {
    memoryUsed: member.used.get("MEMORY_MB") ?? 0,
    memoryTotal: physical("MEMORY_MB"),
    cpuUsed: member.used.get("VCPU") ?? 0,
    cpuTotal: physical("VCPU"),
  };
}

function percent(used: number, total: number): number {
  return total <= 0 ? 0 : Math.trunc((used * 100) / total);
}

/**
 * The score of `usage`, with `arriving` (an instance's VCPU and MEMORY_MB)
 * added when given. Incus adds a moved instance's CPU count to memory and
 * its memory to the CPU load (it passes them swapped); Berth follows the
 * intent: CPUs to CPUs, memory to memory. Incus keeps the score in a
 * uint8, which wraps past 255; Berth's does not.
 */
export function loadScore(usage: MemberUsage, arriving?: { cpu: number; memory: number }): number {
  const memory = percent(usage.memoryUsed + (arriving?.memory ?? 0), usage.memoryTotal);
  const cpu = percent(usage.cpuUsed + (arriving?.cpu ?? 0), usage.cpuTotal);
  return Math.trunc((memory + cpu) / 2);
}

/**
 * Incus's trigger: how far the least loaded member is below the busiest,
 * in percent of the busiest's score (truncated). 0 when the busiest is idle.
 */
export function differencePercent(busiest: number, leastBusy: number): number {
  return busiest <= 0 ? 0 : Math.trunc(((busiest - leastBusy) / busiest) * 100);
}
