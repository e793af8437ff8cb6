/**
 * The sentences of the "why here?" panel, from the decision record
 * (`GET /1.0/instances/NAME/placement`).
 */
import type { InstancePlacementRecord } from "@berth/api-types";

const REASONS: Record<InstancePlacementRecord["reason"], string> = {
  new: "created",
  evacuation: "moved off an evacuated member",
  relocation: "moved (relocation)",
  rebalance: "moved by a rebalance",
  restore: "moved back after its member was restored",
};

export function reasonText(record: InstancePlacementRecord): string {
  return REASONS[record.reason];
}

/** Which policy decided, in one sentence. */
export function deciderText(record: InstancePlacementRecord): string {
  const group = record.placement_group;
  const groupPart =
    group === null ? "" : `, ordered by placement group "${group.name}" (${group.policy}, ${group.rigor})`;
  switch (record.decided_by) {
    case "target":
      return `The caller asked for ${record.member} (target "${record.target ?? record.member}"); it passed the checks an explicit target must pass.`;
    case "scriptlet":
      return `The placement scriptlet chose ${record.member} with set_target${record.target !== null ? ` among the members of ${record.target}` : ""}.`;
    case "default":
      return `The default policy chose ${record.member}: the first candidate, fewest instances first, ties in join order${groupPart}${record.target !== null ? `, within ${record.target}` : ""}.`;
    case "rebalance":
      return `The rebalancer moved it to ${record.member} to even out the cluster's load.`;
    case "restore":
      return `It went back to ${record.member}, the member it had been evacuated from, when that member was restored.`;
  }
}

/** "3 of 7 members were candidates" (or why there was no search). */
export function candidatesText(record: InstancePlacementRecord): string {
  if (record.candidates === null)
    return `No candidate search ran (${record.members} members in the cluster).`;
  const { count } = record.candidates;
  return `${count} of ${record.members} member${record.members === 1 ? "" : "s"} ${count === 1 ? "was a candidate" : "were candidates"}.`;
}

/** "In the order the decision saw them: node1, node2, …" (the record keeps the first few), or "". */
export function leadingText(record: InstancePlacementRecord): string {
  const candidates = record.candidates;
  if (candidates === null || candidates.leading.length === 0) return "";
  const more = candidates.count > candidates.leading.length;
  return `In the order the decision saw them: ${candidates.leading.join(", ")}${more ? ", …" : "."}`;
}
