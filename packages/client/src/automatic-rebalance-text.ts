/**
 * The words `berth cluster rebalance --dry-run` and the console use for a
 * preview of the next automatic rebalancing run (GET /1.0/cluster/rebalance/automatic),
 * written once so both say the same.
 */
import type { AutomaticRebalancePreview } from "@berth/api-types";

/** Whether runs are on, the rules in force and when this server runs the next one. */
export function automaticRebalanceSettingsText(preview: AutomaticRebalancePreview): string {
  const rules = `threshold ${preview.threshold}%, batch ${preview.batch}, cooldown ${preview.cooldown}`;
  if (!preview.enabled)
    return `Automatic rebalancing is off (cluster.rebalance.interval=${preview.interval}); a run would use ${rules}.`;
  const next = preview.next_run_at === null ? "" : `; next run at ${preview.next_run_at}`;
  return `Automatic rebalancing every ${preview.interval} minute(s), ${rules}${next}.`;
}

/** One architecture's scores, busiest first, and whether the run relieves its busiest member. */
export function automaticRebalanceGroupText(
  group: AutomaticRebalancePreview["groups"][number],
  threshold: number,
): string {
  const scores = group.members.map((member) => `${member.name} ${member.score}`).join(", ");
  const verdict = group.triggered
    ? `relieves ${group.members[0]?.name ?? ""}`
    : `under the threshold (${threshold}%) or idle: nothing moves`;
  return `${group.architecture || "(no architecture)"}: load ${scores}; difference ${group.difference_percent}%: ${verdict}`;
}
