/**
 * The capacity panel's words: what stops more instances, said for an
 * operator, and which members to show first.
 */
import type { ClusterCapacity } from "@berth/api-types";
import { classLabel, formatAmount } from "../format/amounts.js";

/** The API's `limited_by` code in words ("Memory runs out", "project limits.instances"). */
export function limitedByText(code: string): string {
  if (code === "") return "nothing";
  const colon = code.indexOf(":");
  const kind = colon < 0 ? code : code.slice(0, colon);
  const what = colon < 0 ? "" : code.slice(colon + 1);
  switch (kind) {
    case "capacity":
      return `${classLabel(what)} runs out`;
    case "lack":
      return `has no ${classLabel(what)}`;
    case "constraints":
      return `${classLabel(what)} inventory constraints`;
    case "spread":
      return `placement group ${what} (strict spread)`;
    case "compact":
      return `placement group ${what} (strict compact)`;
    case "group":
      return `not in group ${what}`;
    case "scheduler-manual":
      return "scheduler.instance=manual";
    default:
      return code.startsWith("limits.") ? `project ${code}` : code;
  }
}

/** "24 more fit (Memory runs out)". */
export function capacityHeadline(answer: ClusterCapacity): string {
  const count = answer.instances.toLocaleString("en-US");
  return `${count} more fit (${limitedByText(answer.limited_by)})`;
}

/** The members that take some, most first, at most `max` of them, and how many take none. */
export function takingMembers(
  answer: ClusterCapacity,
  max: number,
): { shown: ClusterCapacity["members"]; more: number; none: number } {
  const taking = answer.members.filter((member) => member.instances > 0);
  const sorted = [...taking].sort((a, b) => b.instances - a.instances);
  return {
    shown: sorted.slice(0, max),
    more: Math.max(0, sorted.length - max),
    none: answer.members.length - taking.length,
  };
}

/** "4 × this shape on node1 (vCPU 8, Memory 8 GiB)"; null when not even one fits. */
export function largestText(answer: ClusterCapacity): string | null {
  const { multiple, location, resources } = answer.largest;
  if (location === null) return null;
  const amounts = Object.entries(resources)
    .map(([resourceClass, amount]) => `${classLabel(resourceClass)} ${formatAmount(resourceClass, amount)}`)
    .join(", ");
  return `${multiple} × this shape on ${location} (${amounts})`;
}
