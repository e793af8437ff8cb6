/**
 * Combining the groups' choices into candidates: for one anchor (root
 * provider), one choice of every group, kept when the request-wide rules
 * hold: `group_policy=isolate` (the suffixed groups use distinct
 * providers), every `same_subtree` (the providers serving those groups
 * hang under one of them), and the summed amounts fit each provider (its
 * capacity and `max_unit`; groups may take the same class from the same
 * provider).
 */
import { inventoryCapacity } from "@berth/resources";
import type { ProviderRecord } from "../store/records.js";
import type { ProviderUsage } from "./filter.js";
import type { GroupChoice } from "./request-group.js";
import { inOneSubtree } from "./tree.js";

/** One candidate before rendering: amounts by provider and class, providers by group suffix. */
export interface Combined {
  allocations: Record<string, Record<string, number>>;
  mappings: Record<string, string[]>;
}

export interface CombineRules {
  /** The suffixes in request order; "" is the unsuffixed group. */
  suffixes: readonly string[];
  isolate: boolean;
  /** Each entry: suffixes whose providers must share one subtree. */
  sameSubtree: readonly (readonly string[])[];
  byUuid: ReadonlyMap<string, ProviderRecord>;
  usage: ProviderUsage;
}

function isolated(picked: readonly GroupChoice[], rules: CombineRules): boolean {
  if (!rules.isolate) return true;
  const suffixed = picked.filter((_, index) => rules.suffixes[index] !== "");
  return new Set(suffixed.map((choice) => choice.providers[0])).size === suffixed.length;
}

function subtreesHold(picked: readonly GroupChoice[], rules: CombineRules): boolean {
  return rules.sameSubtree.every((suffixes) => {
    const uuids = new Set(
      picked.flatMap((choice, index) =>
        suffixes.includes(rules.suffixes[index] as string) ? choice.providers : [],
      ),
    );
    return inOneSubtree([...uuids], rules.byUuid);
  });
}

/**
 * The picked choices as one candidate (suffixes are unique, so each group has its own mappings entry).
 * With one group the choice is the candidate: each choice makes one candidate and nothing is summed,
 * so its objects are handed on rather than copied (the search makes 1,000 of them per full answer).
 */
function consolidate(picked: readonly GroupChoice[], rules: CombineRules): Combined {
  const only = picked.length === 1 ? picked[0] : undefined;
  if (only !== undefined)
    return { allocations: only.allocations, mappings: { [rules.suffixes[0] as string]: only.providers } };
  const allocations: Record<string, Record<string, number>> = {};
  const mappings: Record<string, string[]> = {};
  picked.forEach((choice, index) => {
    for (const uuid in choice.allocations) {
      const given = choice.allocations[uuid] as Record<string, number>;
      const amounts = (allocations[uuid] ??= {});
      for (const resourceClass in given)
        amounts[resourceClass] = (amounts[resourceClass] ?? 0) + (given[resourceClass] as number);
    }
    const suffix = rules.suffixes[index] as string;
    const mapped = (mappings[suffix] ??= []);
    for (const uuid of choice.providers) if (!mapped.includes(uuid)) mapped.push(uuid);
  });
  return { allocations, mappings };
}

/** Placement's final check on summed amounts: capacity and max_unit (unit sizes were judged per group). */
function fits(combined: Combined, rules: CombineRules): boolean {
  for (const uuid in combined.allocations) {
    const inventories = rules.byUuid.get(uuid)?.inventories;
    const used = rules.usage.get(uuid);
    const amounts = combined.allocations[uuid] as Record<string, number>;
    for (const resourceClass in amounts) {
      const amount = amounts[resourceClass] as number;
      const inventory = inventories?.[resourceClass];
      if (inventory === undefined) return false;
      if (amount > inventory.maxUnit) return false;
      if ((used?.[resourceClass] ?? 0) + amount > Math.trunc(inventoryCapacity(inventory))) return false;
    }
  }
  return true;
}

/**
 * Every combination for one anchor, given each group's choices for it (in
 * `rules.suffixes` order), handed to `take` in order; stops when `take`
 * answers true (enough candidates) and then answers true itself.
 */
export function combineForAnchor(
  choices: readonly (readonly GroupChoice[])[],
  rules: CombineRules,
  take: (combined: Combined) => boolean,
): boolean {
  const picked: GroupChoice[] = [];
  const pick = (index: number): boolean => {
    if (index === choices.length) {
      if (!isolated(picked, rules) || !subtreesHold(picked, rules)) return false;
      const combined = consolidate(picked, rules);
      // One group's amounts were judged provider by provider (`canProvide`): only sums need the check.
      return (choices.length === 1 || fits(combined, rules)) && take(combined);
    }
    for (const choice of choices[index] ?? []) {
      picked.push(choice);
      const enough = pick(index + 1);
      picked.pop();
      if (enough) return true;
    }
    return false;
  };
  return pick(0);
}
