/**
 * What a claim did, as the change feed carries it: the rules' usage changes
 * and the instances that went and came, grouped by what the model counts
 * (member, project, type, ledger, placement group, limits usage). A bulk of
 * 10,000 identical instances on 1,000 members is ~1,000 groups, not 10,000
 * records. Every Store writes `claimEffectOf(checked)` in the claim's own
 * transaction; engines apply it with `applyClaimEffect` (apply.ts).
 */

import {
  type ChangeEntry,
  type ClaimEffect,
  type CountedChange,
  countedChangeOf,
} from "../../store/change-feed.js";
import type { ClaimResult } from "../../store/port.js";
import type { InstanceRecord } from "../../store/records.js";
import type { CheckedConsumerClaim } from "../ledger/consumer-claim.js";
import type { CheckedClaim } from "./check-claim.js";
import type { UsageChange } from "./usage-after.js";

function shapeKey(instance: InstanceRecord): string {
  const { limitsUsage: limits } = instance;
  // One template instead of an array joined: this runs for every instance of every claim.
  return `${instance.location}\u0001${instance.project}\u0001${instance.type}\u0001${instance.forthcoming ? 1 : 0}\u0001${instance.placementGroup ?? "\u0000"}\u0001${limits.cpu}\u0001${limits.memoryBytes}\u0001${limits.diskBytes}`;
}

/** The usage changes as the feed carries them: [provider, class, ledger, amount]. */
function usageTuples(changes: readonly UsageChange[], into: ClaimEffect["usage"]): void {
  for (const change of changes)
    into.push([change.provider, change.resourceClass, change.ledger, change.amount]);
}

/**
 * What a checked claim does to the counts an engine's model keeps: usage per provider, class and
 * ledger, and instances counted in and out by shape.
 */
export function claimEffectOf(
  checked: Pick<CheckedClaim, "removed" | "stored" | "usageChanges" | "instanceConsumers">,
): ClaimEffect {
  // Changes on child providers keep their uuid, which names no member: engines apply them to
  // their provider model (feed-sync.ts), as a consumer claim's.
  const usage: ClaimEffect["usage"] = [];
  usageTuples(checked.usageChanges, usage);
  usageTuples(checked.instanceConsumers.usageChanges, usage);
  const { removed, stored } = checked;
  // The common claim, one create: one group, no key to build.
  if (removed.length === 0 && stored.length === 1)
    return { usage, instances: [countedChangeOf(stored[0]!, 1)] };
  const groups = new Map<string, CountedChange>();
  const count = (instance: InstanceRecord, sign: number) => {
    const key = shapeKey(instance);
    const group = groups.get(key);
    if (group !== undefined) {
      group.count += sign;
      return;
    }
    groups.set(key, countedChangeOf(instance, sign));
  };
  for (const old of removed) count(old, -1);
  for (const record of stored) count(record, 1);
  // A move within one member with the same shape nets out: nothing to count.
  const instances: CountedChange[] = [];
  for (const group of groups.values()) if (group.count !== 0) instances.push(group);
  return { usage, instances };
}

/**
 * A checked claim's effect, computed once: a Store writes it in the claim's
 * entry (`claimEntryOf`) and answers it (`claimResultOf`), and for a bulk
 * claim of thousands of instances the grouping is worth doing once.
 */
const effects = new WeakMap<CheckedClaim, ClaimEffect>();
function effectOf(checked: CheckedClaim): ClaimEffect {
  let effect = effects.get(checked);
  if (effect === undefined) effects.set(checked, (effect = claimEffectOf(checked)));
  return effect;
}

function entryWith(checked: CheckedClaim, effect: ClaimEffect): ChangeEntry {
  const entry: ChangeEntry = { kind: "claim", effect };
  if (checked.tokens.length > 0) entry.tokens = [...checked.tokens];
  return entry;
}

function resultWith(checked: CheckedClaim, effect: ClaimEffect): ClaimResult {
  return { instances: checked.stored, usage: checked.usage, effect };
}

/** The change-feed entry every Store writes for a checked claim, in the claim's own transaction. */
export function claimEntryOf(checked: CheckedClaim): ChangeEntry {
  return entryWith(checked, effectOf(checked));
}

/** What every Store answers for a claim it wrote (`Store.claim`). */
export function claimResultOf(checked: CheckedClaim): ClaimResult {
  return resultWith(checked, effectOf(checked));
}

/**
 * `claimEntryOf` and `claimResultOf` at once, for a Store that writes the
 * entry and answers in one synchronous step (the memory store): the effect
 * is computed once, with no cache to keep it between the two calls.
 */
export function claimEntryAndResultOf(checked: CheckedClaim): { entry: ChangeEntry; result: ClaimResult } {
  const effect = claimEffectOf(checked);
  return { entry: entryWith(checked, effect), result: resultWith(checked, effect) };
}

/**
 * What a Placement consumer claim did, as the feed carries it (a
 * "consumers" entry): the usage
 * changes on member root providers, keyed by the member's name so engines
 * apply them to the member's "used" ledger (one ledger, shared-ledger.ts);
 * changes on other providers keep their uuid, which names no member.
 * Consumers are not instances: nothing is counted.
 */
export function consumerClaimEntry(
  checked: Pick<CheckedConsumerClaim, "usageChanges">,
  /** The member a provider uuid is the root of, if any. */
  memberOf: (uuid: string) => string | undefined,
  /** The generations the claim wrote, by provider uuid. */
  bumped: readonly (readonly [string, number])[],
): ChangeEntry {
  return {
    kind: "consumers",
    effect: {
      usage: checked.usageChanges.map((change) => [
        memberOf(change.provider) ?? change.provider,
        change.resourceClass,
        change.ledger,
        change.amount,
      ]),
      instances: [],
    },
    bumped: bumped.map(([uuid, generation]) => [uuid, generation]),
  };
}
