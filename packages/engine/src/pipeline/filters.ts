/**
 * Step 3 of a placement: feasibility filters, in the order LXD/Incus apply
 * them (state, scheduler rules, groups, architecture) followed by Placement's
 * traits and capacity. Each filter has one reason to reject and returns it;
 * the pipeline keeps the first rejection per member.
 */
import { checkFit, noInventory } from "@berth/resources";
import type { MemberState } from "../model/member-state.js";
import type { PlacementContext } from "./context.js";
import { type Rejection, rejection } from "./rejection.js";

export interface CandidateFilter {
  readonly name: string;
  reject(member: MemberState, context: PlacementContext): Rejection | undefined;
}

/** 32-bit personalities a 64-bit member can also run (LXD `GetCandidateMembers`). */
const PERSONALITIES: Readonly<Record<string, readonly string[]>> = {
  x86_64: ["i686"],
  aarch64: ["armv6l", "armv7l", "armv8l"],
  ppc64: ["ppc"],
  mips64: ["mips"],
};

export function supportedArchitectures(architecture: string): readonly string[] {
  return [architecture, ...(PERSONALITIES[architecture] ?? [])];
}

export const excludedFilter: CandidateFilter = {
  name: "excluded",
  reject: (member, context) =>
    context.excluded.has(member.name)
      ? rejection("excluded", "is the instance's current member", "are the instance's current members")
      : undefined,
};

export const onlineFilter: CandidateFilter = {
  name: "online",
  reject: (member, context) =>
    member.isOnline(context.nowMs, context.offlineThresholdMs)
      ? undefined
      : rejection("offline", "is offline", "are offline"),
};

export const evacuatedFilter: CandidateFilter = {
  name: "evacuated",
  reject: (member) =>
    member.record.evacuated ? rejection("evacuated", "is evacuated", "are evacuated") : undefined,
};

export const schedulerFilter: CandidateFilter = {
  name: "scheduler.instance",
  reject: (member, context) => {
    const mode = member.record.config["scheduler.instance"] ?? "all";
    if (mode === "manual") {
      return rejection("scheduler-manual", "has scheduler.instance=manual", "have scheduler.instance=manual");
    }
    if (
      mode === "group" &&
      (context.targetGroup === null || !member.record.groups.includes(context.targetGroup))
    ) {
      return rejection(
        "scheduler-group",
        "takes instances only through one of its groups (scheduler.instance=group)",
        "take instances only through one of their groups (scheduler.instance=group)",
      );
    }
    return undefined;
  },
};

export const targetGroupFilter: CandidateFilter = {
  name: "target group",
  reject: (member, context) =>
    context.targetGroup === null || member.record.groups.includes(context.targetGroup)
      ? undefined
      : rejection(
          `group:${context.targetGroup}`,
          `is not in group "${context.targetGroup}"`,
          `are not in group "${context.targetGroup}"`,
        ),
};

export const projectGroupsFilter: CandidateFilter = {
  name: "restricted.cluster.groups",
  reject: (member, context) =>
    context.allowedGroups.length === 0 || context.allowedGroups.some((g) => member.record.groups.includes(g))
      ? undefined
      : rejection(
          "project-groups",
          `is outside the groups project "${context.project.name}" may use`,
          `are outside the groups project "${context.project.name}" may use`,
        ),
};

export const architectureFilter: CandidateFilter = {
  name: "architecture",
  reject: (member, context) => {
    const wanted = context.request.architectures;
    if (wanted === null) return undefined;
    const supported = supportedArchitectures(member.record.architecture);
    if (wanted.some((arch) => supported.includes(arch))) return undefined;
    const list = wanted.join("/");
    return rejection(`arch:${list}`, `can't run ${list}`, `can't run ${list}`);
  },
};

export const traitsFilter: CandidateFilter = {
  name: "traits",
  reject: (member, context) => {
    for (const trait of context.request.requiredTraits) {
      if (!member.record.traits.includes(trait))
        return rejection(`lack:${trait}`, `lacks ${trait}`, `lack ${trait}`);
    }
    for (const trait of context.request.forbiddenTraits) {
      if (member.record.traits.includes(trait)) {
        return rejection(
          `forbidden:${trait}`,
          `has forbidden trait ${trait}`,
          `have forbidden trait ${trait}`,
        );
      }
    }
    return undefined;
  },
};

export const capacityFilter: CandidateFilter = {
  name: "capacity",
  reject: (member, context) => {
    for (const resourceClass in context.request.resources) {
      const amount = context.request.resources[resourceClass] as number;
      const inventory = member.inventories[resourceClass];
      const verdict =
        inventory === undefined
          ? noInventory(resourceClass, amount)
          : checkFit(resourceClass, inventory, member.consumed(resourceClass), amount);
      if (verdict.ok) continue;
      switch (verdict.kind) {
        case "no-inventory":
          return rejection(`lack:${resourceClass}`, `lacks ${resourceClass}`, `lack ${resourceClass}`, true);
        case "exceeds-capacity":
          return rejection(
            `capacity:${resourceClass}`,
            `has too little ${resourceClass}`,
            `have too little ${resourceClass}`,
            true,
          );
        default:
          return rejection(
            `constraints:${resourceClass}`,
            `can't take ${amount} ${resourceClass} (inventory constraints)`,
            `can't take ${amount} ${resourceClass} (inventory constraints)`,
            true,
          );
      }
    }
    return undefined;
  },
};

/** The automatic-placement stack, in order. */
export const CANDIDATE_FILTERS: readonly CandidateFilter[] = [
  excludedFilter,
  onlineFilter,
  evacuatedFilter,
  schedulerFilter,
  targetGroupFilter,
  projectGroupsFilter,
  architectureFilter,
  traitsFilter,
  capacityFilter,
];

/**
 * What an explicit member target must still satisfy: LXD does not check
 * state, scheduler or architecture for `?target=member`, but Berth never
 * overcommits, so resources and traits are checked.
 */
export const TARGET_FILTERS: readonly CandidateFilter[] = [excludedFilter, traitsFilter, capacityFilter];
