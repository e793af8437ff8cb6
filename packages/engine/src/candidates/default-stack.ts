/**
 * Berth's placement stack: LXD/Incus's candidate rules in their order
 * (state, scheduler rules, groups, architecture), Placement's traits and
 * capacity, then the default policy and placement groups. A new filter or
 * ranker is one file and one line here.
 */
import { architectureFilter } from "./filters/architecture.js";
import { capacityFilter } from "./filters/capacity.js";
import { evacuatedFilter } from "./filters/evacuated.js";
import { excludedFilter } from "./filters/excluded.js";
import { onlineFilter } from "./filters/online.js";
import { projectGroupsFilter } from "./filters/project-groups.js";
import { schedulerFilter } from "./filters/scheduler.js";
import { targetGroupFilter } from "./filters/target-group.js";
import { traitsFilter } from "./filters/traits.js";
import { fewestInstancesRanker } from "./rankers/fewest-instances.js";
import { placementGroupRanker } from "./rankers/placement-group.js";
import { PlacementStack, type StackDefinition, type StackOptions } from "./stack.js";

export const DEFAULT_STACK: StackDefinition = {
  filters: [
    excludedFilter,
    onlineFilter,
    evacuatedFilter,
    schedulerFilter,
    targetGroupFilter,
    projectGroupsFilter,
    architectureFilter,
    traitsFilter,
    capacityFilter,
  ],
  rankers: [fewestInstancesRanker, placementGroupRanker],
};

export function defaultStack(options: StackOptions = {}): PlacementStack {
  return new PlacementStack(DEFAULT_STACK, options);
}
