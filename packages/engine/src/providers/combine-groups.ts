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

function consolidate(picked: readonly GroupChoice[], rules: CombineRules): Combined {
  const allocations: Record<string, Record<string, number>> = {};
  const mappings: Record<string, string[]> = {};
  picked.forEach((choice, index) => {
    for (const { provider, resourceClass, amount } of choice.shares) {
      const amounts = (allocations[provider.uuid] ??= {});
      amounts[resourceClass] = (amounts[resourceClass] ?? 0) + amount;
    }
    const suffix = rules.suffixes[index] as string;
    mappings[suffix] = [...new Set([...(mappings[suffix] ?? []), ...choice.providers])];
  });
  return { allocations, mappings };
}

/** Placement's final check on summed amounts: capacity and max_unit (unit sizes were judged per group). */
function fits(combined: Combined, rules: CombineRules): boolean {
  for (const [uuid, amounts] of Object.entries(combined.allocations)) {
    const provider = rules.byUuid.get(uuid);
    const used = rules.usage.get(uuid) ?? {};
    for (const [resourceClass, amount] of Object.entries(amounts)) {
      const inventory = provider?.inventories[resourceClass];
      if (inventory === undefined) return false;
      if (amount > inventory.maxUnit) return false;
      if ((used[resourceClass] ?? 0) + amount > Math.trunc(inventoryCapacity(inventory))) return false;
    }
  }
  return true;
}

/** Every combination for one anchor, given each group's choices for it (in `rules.suffixes` order). */
export function* combineForAnchor(
  choices: readonly (readonly GroupChoice[])[],
  rules: CombineRules,
): Generator<Combined> {
  const picked: GroupChoice[] = [];
  function* pick(index: number): Generator<Combined> {
    if (index === choices.length) {
      if (!isolated(picked, rules) || !subtreesHold(picked, rules)) return;
      const combined = consolidate(picked, rules);
      if (fits(combined, rules)) yield combined;
      return;
    }
    for (const choice of choices[index] ?? []) {
      picked.push(choice);
      yield* pick(index + 1);
      picked.pop();
    }
  }
  yield* pick(0);
}
