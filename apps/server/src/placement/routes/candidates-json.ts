/**
 * The allocation-candidates answer as Placement shapes it per microversion,
 * written directly as JSON (UTF-8 bytes): `allocation_requests` (a list of providers
 * before 1.12, keyed by provider from 1.12, `mappings` from 1.34) and
 * `provider_summaries` (only the requested classes before 1.27, every
 * inventoried class from 1.27, traits from 1.17, tree uuids from 1.29).
 * The `allocation_requests` list is the engine's amounts and mappings put in
 * Placement's shape and written by one JSON.stringify (V8's serializer beats
 * text built piece by piece here: 0.6 ms against 2.3 ms for 1,000
 * candidates, in-process, 2026-11-29). The summaries are written piece by
 * piece: the parts of a summary that change only with its provider row are
 * kept beside the row, and a summary whose use did not move is the same bytes.
 */
import type { Candidate, CandidateAnswer, ProviderRecord } from "@berth/engine";
import { displayedCapacity, type Inventory } from "@berth/resources";
import { atLeast, type Microversion } from "../microversion.js";

/** One `allocation_requests` entry: a list of providers before 1.12, keyed by provider from 1.12, `mappings` from 1.34. */
function allocationRequest(candidate: Candidate, version: Microversion): object {
  const { allocations } = candidate;
  if (!atLeast(version, 12))
    return {
      allocations: Object.keys(allocations).map((uuid) => ({
        resource_provider: { uuid },
        resources: allocations[uuid],
      })),
    };
  const byProvider: Record<string, { resources: Readonly<Record<string, number>> | undefined }> = {};
  for (const uuid in allocations) byProvider[uuid] = { resources: allocations[uuid] };
  return atLeast(version, 34)
    ? { allocations: byProvider, mappings: candidate.mappings }
    : { allocations: byProvider };
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
  /** The whole summary last written (UTF-8), and the used amounts (in `classes` order) it shows. */
  last?: { used: number[]; bytes: Buffer };
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

/** True when `shown` (in `parts.classes` order) is what `used` holds (a loop: this runs per provider and answer). */
function showsUse(
  parts: SummaryParts,
  shown: readonly number[],
  used: Readonly<Record<string, number>>,
): boolean {
  const { classes } = parts;
  for (let index = 0; index < classes.length; index++)
    if (shown[index] !== (used[(classes[index] as SummaryParts["classes"][number]).resourceClass] ?? 0))
      return false;
  return true;
}

/**
 * One provider's summary, as UTF-8: each class's capacity and use (before
 * 1.27 only the requested classes), its traits from 1.17, its tree from 1.29.
 */
function summaryBytes(
  provider: ProviderRecord,
  used: Readonly<Record<string, number>>,
  version: Microversion,
  requested: ReadonlySet<string>,
): Buffer {
  const parts = partsOf(provider, version, requested);
  // Most providers' use did not move since the last answer: their summary is the same bytes.
  const last = parts.last;
  if (last !== undefined && showsUse(parts, last.used, used)) return last.bytes;
  const amounts = parts.classes.map(({ resourceClass }) => used[resourceClass] ?? 0);
  let resources = "";
  parts.classes.forEach(({ text }, index) => {
    resources += `${index === 0 ? "" : ","}${text}${amounts[index]}}`;
  });
  const bytes = Buffer.from(`${parts.head}${resources}${parts.tail}`);
  parts.last = { used: amounts, bytes };
  return bytes;
}

const REQUESTS_HEAD = Buffer.from('{"allocation_requests":');
const SUMMARIES_HEAD = Buffer.from(',"provider_summaries":{');
const COMMA = Buffer.from(",");
const END = Buffer.from("}}");

/**
 * The whole answer as UTF-8 (`requested`: the classes the request names,
 * for summaries before 1.27). Bytes, not text: the kept summaries are
 * copied once into the body and the socket takes it as it is, where one
 * 441 KB string joined from the pieces was then encoded again on the
 * socket (two more copies, and a large string for the collector).
 */
export function candidatesJson(
  answer: CandidateAnswer,
  version: Microversion,
  requested: ReadonlySet<string>,
): Buffer {
  const requests = JSON.stringify(
    answer.candidates.map((candidate) => allocationRequest(candidate, version)),
  );
  const pieces: Buffer[] = [REQUESTS_HEAD, Buffer.from(requests), SUMMARIES_HEAD];
  answer.providers.forEach((provider, index) => {
    if (index > 0) pieces.push(COMMA);
    pieces.push(summaryBytes(provider, answer.usage.get(provider.uuid) ?? {}, version, requested));
  });
  pieces.push(END);
  return Buffer.concat(pieces);
}
