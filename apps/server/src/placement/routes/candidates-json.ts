/**
 * The allocation-candidates answer as Placement shapes it per microversion,
 * written directly as JSON (UTF-8 bytes): `allocation_requests` (a list of providers
 * before 1.12, keyed by provider from 1.12, `mappings` from 1.34) and
 * `provider_summaries` (only the requested classes before 1.27, every
 * inventoried class from 1.27, traits from 1.17, tree uuids from 1.29).
 * Both are written as text directly, exactly what JSON.stringify of
 * Placement's object form gives (candidates-json.test.ts compares them), with
 * no object tree built per answer: an `allocation_requests` entry is a few
 * joins of its uuids and its amounts' text (candidates sharing one amounts
 * object share that text), and the parts of a summary that change only with
 * its provider row are kept beside the row, so a summary whose use did not
 * move is the same bytes; so are the entries of an answer of lone trees
 * (the engine marks it `alone`), for the same rows and amounts. Nothing is
 * kept per query: a claim between two lists shows in the next one.
 */
import type { Candidate, CandidateAnswer, ProviderRecord } from "@berth/engine";
import { displayedCapacity, type Inventory } from "@berth/resources";
import { atLeast, type Microversion } from "../microversion.js";
import { BodyWriter } from "./body-writer.js";

type Amounts = Readonly<Record<string, number>>;

/**
 * What JSON.stringify writes as it is: no `"`, `\`, control character or
 * surrogate (a lone one is escaped; a pair is left to JSON.stringify too).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * JSON text of a string (a uuid, a class name, a group suffix), as
 * JSON.stringify writes it. Uuids and names have nothing to escape: one
 * compiled pattern's test and the quotes cost a third of JSON.stringify's
 * call, for the 2,000 uuids of a full answer.
 */
const quote = (text: string) => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

/**
 * `{"CLASS":N,...}` for one provider's amounts. Candidates of one answer
 * often share one amounts object (the engine's search of lone trees), so
 * the last one's text is kept while the answer is written.
 */
class AmountsText {
  private last: Amounts | undefined;
  private text = "";

  of(amounts: Amounts): string {
    if (amounts === this.last) return this.text;
    const entries = Object.keys(amounts).map((resourceClass) => {
      const amount = amounts[resourceClass] as number;
      return `${quote(resourceClass)}:${Number.isFinite(amount) ? amount : "null"}`;
    });
    this.last = amounts;
    this.text = `{${entries.join(",")}}`;
    return this.text;
  }
}

/** `{"SUFFIX":["uuid",...],...}`: which providers serve each group (1.34; loops, no array per entry). */
function mappingsText(mappings: Readonly<Record<string, readonly string[]>>): string {
  let text = "{";
  for (const suffix in mappings) {
    const uuids = mappings[suffix] as readonly string[];
    text += `${text.length === 1 ? "" : ","}${quote(suffix)}:[`;
    for (let index = 0; index < uuids.length; index++)
      text += `${index === 0 ? "" : ","}${quote(uuids[index] as string)}`;
    text += "]";
  }
  return `${text}}`;
}

/** The shape of `allocation_requests` entries at one microversion. */
interface RequestShape {
  /** From 1.12: keyed by provider (before: a list of providers). */
  keyed: boolean;
  /** From 1.34: the entry says which providers serve each group. */
  mappings: boolean;
  amounts: AmountsText;
}

/**
 * One `allocation_requests` entry, as JSON.stringify writes Placement's
 * object form of it (one template per provider: the full list writes 1,000).
 */
function allocationRequestText(candidate: Candidate, shape: RequestShape): string {
  const { allocations } = candidate;
  // Object.keys, not for-in: the engine's records keyed by uuid have no prototype (dictionary objects).
  const uuids = Object.keys(allocations);
  let text = "";
  for (let index = 0; index < uuids.length; index++) {
    const uuid = uuids[index] as string;
    const resources = shape.amounts.of(allocations[uuid] as Amounts);
    const comma = index === 0 ? "" : ",";
    text += shape.keyed
      ? `${comma}${quote(uuid)}:{"resources":${resources}}`
      : `${comma}{"resource_provider":{"uuid":${quote(uuid)}},"resources":${resources}}`;
  }
  if (!shape.keyed) return `{"allocations":[${text}]}`;
  if (!shape.mappings) return `{"allocations":{${text}}}`;
  return `{"allocations":{${text}},"mappings":${mappingsText(candidate.mappings)}}`;
}

/** The `allocation_requests` shape as a number: keyed (1.12) + 1, mappings (1.34) + 2. */
const shapeCode = (shape: RequestShape) => (shape.keyed ? 1 : 0) + (shape.mappings ? 2 : 0);

/** A lone provider's entry as last written: for which shape and amounts, and its UTF-8. */
interface LoneRequest {
  shape: number;
  amounts: string;
  bytes: Buffer;
}

/**
 * Lone providers' `allocation_requests` entries (of answers marked
 * `alone`), kept beside their rows (a changed row is a new object, so an
 * entry never outlives its row): a
 * full list of single-provider hosts asks the same amounts of the same rows
 * call after call, so each entry is copied in as bytes, not written again.
 */
const loneRequests = new WeakMap<ProviderRecord, LoneRequest>();

function loneRequestBytes(provider: ProviderRecord, candidate: Candidate, shape: RequestShape): Buffer {
  const code = shapeCode(shape);
  const amounts = shape.amounts.of(candidate.allocations[provider.uuid] as Amounts);
  const kept = loneRequests.get(provider);
  if (kept !== undefined && kept.shape === code && kept.amounts === amounts) return kept.bytes;
  const bytes = Buffer.from(allocationRequestText(candidate, shape));
  loneRequests.set(provider, { shape: code, amounts, bytes });
  return bytes;
}

/** The `allocation_requests` entries of an answer of lone candidates, as one piece, with what fixes it. */
interface LoneSection {
  shape: number;
  amounts: string;
  /** The answer's providers, in order: candidate i is provider i's alone. */
  providers: readonly ProviderRecord[];
  bytes: Buffer;
}

/**
 * The last such section written. A claim between two lists leaves it as it
 * was unless a provider stopped fitting (the search keeps the same row
 * objects until the rows' shape changes), so Nova's list-claim-list loop
 * copies one piece, not a thousand.
 */
let lastLoneSection: LoneSection | undefined;

function sameRecords(a: readonly ProviderRecord[], b: readonly ProviderRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** The entries of an answer the engine marked `alone`, comma-separated. */
function loneSection(answer: CandidateAnswer, shape: RequestShape): Buffer {
  const { candidates, providers } = answer;
  const code = shapeCode(shape);
  const first = candidates[0];
  const amounts =
    first === undefined
      ? ""
      : shape.amounts.of(first.allocations[(providers[0] as ProviderRecord).uuid] as Amounts);
  const kept = lastLoneSection;
  if (
    kept !== undefined &&
    kept.shape === code &&
    kept.amounts === amounts &&
    sameRecords(kept.providers, providers)
  )
    return kept.bytes;
  const section = new BodyWriter(candidates.length * 192);
  for (let index = 0; index < candidates.length; index++) {
    if (index > 0) section.byte(COMMA);
    section.copy(loneRequestBytes(providers[index] as ProviderRecord, candidates[index] as Candidate, shape));
  }
  // Its own copy, the size of the entries: the writer's buffer was sized for the worst case.
  const bytes = Buffer.from(section.done());
  lastLoneSection = { shape: code, amounts, providers, bytes };
  return bytes;
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
  /** Which optional fields the tail has (`SummaryShape.shape`). */
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

/** What the summaries show at one microversion, worked out once per answer (not per provider). */
interface SummaryShape {
  /** Which optional fields the tail has: traits (1.17) + 1, tree (1.29) + 2. */
  shape: number;
  /** Every inventoried class (1.27); before, only `requested`. */
  allClasses: boolean;
  requested: ReadonlySet<string>;
}

function summaryShape(version: Microversion, requested: ReadonlySet<string>): SummaryShape {
  const shape = (atLeast(version, 17) ? 1 : 0) + (atLeast(version, 29) ? 2 : 0);
  return { shape, allClasses: atLeast(version, 27), requested };
}

function partsOf(provider: ProviderRecord, { shape, allClasses, requested }: SummaryShape): SummaryParts {
  const kept = allClasses ? summaryParts.get(provider) : undefined;
  if (kept !== undefined && kept.shape === shape) return kept;
  const classes: SummaryParts["classes"] = [];
  for (const resourceClass in provider.inventories) {
    if (!allClasses && !requested.has(resourceClass)) continue;
    const capacity = displayedCapacity(provider.inventories[resourceClass] as Inventory);
    classes.push({ resourceClass, text: `${quote(resourceClass)}:{"capacity":${capacity},"used":` });
  }
  let tail = "}";
  if (shape & 1) tail += `,"traits":[${inPlacementOrder(provider.traits).map(quote).join(",")}]`;
  if (shape & 2)
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
  shape: SummaryShape,
): Buffer {
  const parts = partsOf(provider, shape);
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

/**
 * The whole answer as UTF-8 (`requested`: the classes the request names,
 * for summaries before 1.27), in one buffer the socket takes as it is, with
 * its Content-Length: each request's text encoded where it lands, then each
 * kept summary copied in.
 */
export function candidatesJson(
  answer: CandidateAnswer,
  version: Microversion,
  requested: ReadonlySet<string>,
): Buffer {
  const { candidates, providers, usage } = answer;
  const summaries: Buffer[] = new Array(providers.length);
  const shown = summaryShape(version, requested);
  let summariesLength = 0;
  for (let index = 0; index < providers.length; index++) {
    const provider = providers[index] as ProviderRecord;
    const bytes = summaryBytes(provider, usage.get(provider.uuid) ?? NOTHING_USED, shown);
    summaries[index] = bytes;
    summariesLength += bytes.length + 1;
  }
  // A one-provider request of three classes is about 150 bytes.
  const body = new BodyWriter(summariesLength + 64 + candidates.length * 192);
  const shape = { keyed: atLeast(version, 12), mappings: atLeast(version, 34), amounts: new AmountsText() };
  body.text('{"allocation_requests":[');
  if (answer.alone === true && candidates.length === providers.length) body.copy(loneSection(answer, shape));
  else
    for (let index = 0; index < candidates.length; index++)
      body.text(`${index === 0 ? "" : ","}${allocationRequestText(candidates[index] as Candidate, shape)}`);
  body.text('],"provider_summaries":{');
  for (let index = 0; index < summaries.length; index++) {
    if (index > 0) body.byte(COMMA);
    body.copy(summaries[index] as Buffer);
  }
  body.copy(END);
  return body.done();
}

const NOTHING_USED: Readonly<Record<string, number>> = {};
const COMMA = 0x2c;
const END = Buffer.from("}}");
