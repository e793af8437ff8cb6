/**
 * What a request asks of one particular member. Most requests ask every
 * member for the same amounts; one whose `limits.memory` is a percentage
 * (`50%`, LXD's share of the host's memory) asks each member for that share
 * of its own memory, resolved by @berth/resources' `onMember` (LXD's
 * arithmetic) against `memberMemoryBytes` (the memory the member reports,
 * else its MEMORY_MB inventory). Every path that sizes a request on a
 * member calls these: the capacity filter (and so named members, bulk,
 * reservations, moves, evacuation, restore, healing), the in-flight hold
 * and the allocations a claim writes, instance edits, rebalancing and the
 * scriptlet's `get_instance_resources()`.
 */
import { memberMemoryBytes, onMember } from "@berth/resources";
import type { InstanceResourcesView } from "../scriptlet/port.js";
import type { MemberRecord } from "../store/records.js";
import type { ExpandedRequest } from "./expand.js";

type Demanding = Pick<ExpandedRequest, "resources" | "memoryShare">;

/** The memory a share on `member` is a share of, in bytes (undefined: it has none). */
export function memberMemory(member: MemberRecord): number | undefined {
  return memberMemoryBytes(member.resources, member.inventories.MEMORY_MB?.total);
}

/**
 * Resolved amounts per request amounts, share and member memory: members
 * of one size get the same object, so the capacity filter builds their
 * demand once (and its per-member verdict cache, which compares demands
 * by identity, keeps working across placements of one shape).
 */
const resolved = new WeakMap<object, Map<string, Readonly<Record<string, number>>>>();

/** The per-class amounts `request` asks of `member` (the request's own object when no share is involved). */
export function resourcesOn(request: Demanding, member: MemberRecord): Readonly<Record<string, number>> {
  const share = request.memoryShare;
  if (share === null || !share.requested) return request.resources;
  const bytes = memberMemory(member);
  let bySize = resolved.get(request.resources);
  if (bySize === undefined) resolved.set(request.resources, (bySize = new Map()));
  const key = `${share.percent}%${bytes}`;
  const known = bySize.get(key);
  if (known !== undefined) return known;
  const amounts = onMember(request.resources, share, bytes).resources;
  bySize.set(key, amounts);
  return amounts;
}

/** A mutable copy of `resourcesOn`, for records and allocations. */
export function resourcesCopyOn(request: Demanding, member: MemberRecord): Record<string, number> {
  return { ...resourcesOn(request, member) };
}

/**
 * `get_instance_resources()` on `member`: the request's InstanceResources
 * with its memory share resolved there (unchanged without a share).
 */
export function instanceResourcesOn(
  request: Pick<ExpandedRequest, "resources" | "memoryShare" | "instanceResources">,
  member: MemberRecord,
): InstanceResourcesView {
  const share = request.memoryShare;
  const own = request.instanceResources;
  if (share === null) return own as InstanceResourcesView;
  const amounts = onMember(request.resources, share, memberMemory(member));
  return {
    cpu_cores: own.cpu_cores,
    memory_size: amounts.memory_size,
    root_disk_size: own.root_disk_size,
    resource_classes: { ...amounts.resources },
  };
}
