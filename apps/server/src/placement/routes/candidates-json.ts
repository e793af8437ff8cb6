/**
 * The allocation-candidates answer as Placement shapes it per microversion,
 * written as JSON text directly: `allocation_requests` (a list of providers
 * before 1.12, keyed by provider from 1.12, `mappings` from 1.34) and
 * `provider_summaries` (only the requested classes before 1.27, every
 * inventoried class from 1.27, traits from 1.17, tree uuids from 1.29).
 * At 1,000 candidates, building the objects only for JSON.stringify to walk
 * them cost more than the search itself; the parts of a summary that change
 * only with its provider row are kept beside the row.
 */
import type { Candidate, CandidateAnswer, ProviderRecord } from "@berth/engine";
import { displayedCapacity, type Inventory } from "@berth/resources";
import { atLeast, type Microversion } from "../microversion.js";

/**
 * JSON string literals, each text quoted once per answer: the same
 * provider uuids and class names come back in every candidate.
 */
class Quotes {
  private readonly memo = new Map<string, string>();

  of(text: string): string {
    let literal = this.memo.get(text);
    if (literal === undefined) {
      literal = JSON.stringify(text);
      this.memo.set(text, literal);
    }
    return literal;
  }
}

/** `{"CLASS":amount,...}` */
function amountsJson(amounts: Readonly<Record<string, number>>, quotes: Quotes): string {
  let out = "";
  for (const resourceClass in amounts)
    out += `${out === "" ? "" : ","}${quotes.of(resourceClass)}:${amounts[resourceClass] as number}`;
  return `{${out}}`;
}

/** One `allocation_requests` entry: a list of providers before 1.12, keyed by provider from 1.12, `mappings` from 1.34. */
function allocationRequestJson(candidate: Candidate, version: Microversion, quotes: Quotes): string {
  const parts: string[] = [];
  if (!atLeast(version, 12)) {
    for (const uuid in candidate.allocations)
      parts.push(
        `{"resource_provider":{"uuid":${quotes.of(uuid)}},"resources":${amountsJson(candidate.allocations[uuid] ?? {}, quotes)}}`,
      );
    return `{"allocations":[${parts.join(",")}]}`;
  }
  for (const uuid in candidate.allocations)
    parts.push(`${quotes.of(uuid)}:{"resources":${amountsJson(candidate.allocations[uuid] ?? {}, quotes)}}`);
  if (!atLeast(version, 34)) return `{"allocations":{${parts.join(",")}}}`;
  const mappings = Object.entries(candidate.mappings).map(
    ([suffix, uuids]) => `${quotes.of(suffix)}:[${uuids.map((uuid) => quotes.of(uuid)).join(",")}]`,
  );
  return `{"allocations":{${parts.join(",")}},"mappings":{${mappings.join(",")}}}`;
}

/**
 * Placement lists a provider's traits in the order the traits were
 * created: the standard os-traits ones (made when its database is set up)
 * before any CUSTOM_ one; the gabbi tests compare these lists literally.
 */
function inPlacementOrder(traits: readonly string[]): string[] {
  const custom = (name: string) => name.startsWith("CUSTOM_");
  return [...traits.filter((t) => !custom(t)), ...traits.filter(custom)];
}

/** What a provider's summary shows besides usage, as JSON text, for one microversion. */
interface SummaryParts {
  /** Which optional fields the tail has (`shapeOf`). */
  shape: number;
  /** `"uuid":{"resources":{` */
  head: string;
  /** Per class shown: `"CLASS":{"capacity":N,"used":` */
  classes: { resourceClass: string; text: string }[];
  /** `}},"traits":[...],...}` */
  tail: string;
  /** The whole summary last written, and the used amounts (in `classes` order) it shows. */
  last?: { used: number[]; text: string };
}

/**
 * The parts of each provider's summary that only change with the provider
 * row, kept beside the row (the engine keeps the same row objects until a
 * row changes), for the microversion last asked; before 1.27 (only the
 * requested classes) they are built per answer.
 */
const summaryParts = new WeakMap<ProviderRecord, SummaryParts>();

/** The summary's optional fields at this microversion: traits (1.17), tree (1.29). */
const shapeOf = (version: Microversion) => (atLeast(version, 17) ? 1 : 0) + (atLeast(version, 29) ? 2 : 0);

function partsOf(
  provider: ProviderRecord,
  version: Microversion,
  requested: ReadonlySet<string>,
): SummaryParts {
  const allClasses = atLeast(version, 27);
  const shape = shapeOf(version);
  const kept = allClasses ? summaryParts.get(provider) : undefined;
  if (kept !== undefined && kept.shape === shape) return kept;
  const quote = (text: string) => JSON.stringify(text);
  const classes: SummaryParts["classes"] = [];
  for (const resourceClass in provider.inventories) {
    if (!allClasses && !requested.has(resourceClass)) continue;
    const capacity = displayedCapacity(provider.inventories[resourceClass] as Inventory);
    classes.push({ resourceClass, text: `${quote(resourceClass)}:{"capacity":${capacity},"used":` });
  }
  let tail = "}";
  if (atLeast(version, 17)) tail += `,"traits":[${inPlacementOrder(provider.traits).map(quote).join(",")}]`;
  if (atLeast(version, 29))
    tail += `,"parent_provider_uuid":${provider.parentUuid === null ? "null" : quote(provider.parentUuid)},"root_provider_uuid":${quote(provider.rootUuid)}`;
  const parts = { shape, head: `${quote(provider.uuid)}:{"resources":{`, classes, tail: `${tail}}` };
  if (allClasses) summaryParts.set(provider, parts);
  return parts;
}

/**
 * One provider's summary: each class's capacity and use (before 1.27 only
 * the requested classes), its traits from 1.17, its tree from 1.29.
 */
function summaryJson(
  provider: ProviderRecord,
  used: Readonly<Record<string, number>>,
  version: Microversion,
  requested: ReadonlySet<string>,
): string {
  const parts = partsOf(provider, version, requested);
  const amounts = parts.classes.map(({ resourceClass }) => used[resourceClass] ?? 0);
  // Most providers' use did not move since the last answer: their summary is the same text.
  const last = parts.last;
  if (last?.used.every((amount, index) => amount === amounts[index])) return last.text;
  let resources = "";
  parts.classes.forEach(({ text }, index) => {
    resources += `${index === 0 ? "" : ","}${text}${amounts[index]}}`;
  });
  const text = `${parts.head}${resources}${parts.tail}`;
  parts.last = { used: amounts, text };
  return text;
}

/** The whole answer (`requested`: the classes the request names, for summaries before 1.27). */
export function candidatesJson(
  answer: CandidateAnswer,
  version: Microversion,
  requested: ReadonlySet<string>,
): string {
  const quotes = new Quotes();
  // One list of pieces and one join: the body is the only large string made (a large string
  // lives until a full garbage collection, so intermediate ones cost more than their copying).
  const pieces: string[] = ['{"allocation_requests":['];
  answer.candidates.forEach((candidate, index) => {
    if (index > 0) pieces.push(",");
    pieces.push(allocationRequestJson(candidate, version, quotes));
  });
  pieces.push('],"provider_summaries":{');
  answer.providers.forEach((provider, index) => {
    if (index > 0) pieces.push(",");
    pieces.push(summaryJson(provider, answer.usage.get(provider.uuid) ?? {}, version, requested));
  });
  pieces.push("}}");
  return pieces.join("");
}
