/**
 * The placement stack: feasibility filters, then rankers, composed in one
 * object (Nomad's `scheduler/stack.go` is the model). Steps 3 and the
 * ranking half of 4 of the path of one placement; the decision (scriptlet
 * or default) is the caller's last step.
 *
 * What it offers:
 * - `candidates(model, request, time, "all")`: every member passing every
 *   filter, in rank order, listed for the scriptlet; when none is left,
 *   why each member was turned down.
 * - `candidates(..., "first")`: the same first candidate, for a caller that
 *   needs no list (the default policy). With one ranking in force, the
 *   stack finds it without ordering anyone, O(1) amortized for the default
 *   ranking (pick-first.ts); otherwise it orders as for "all".
 * - `check(member, request, time)`: one named member through every filter,
 *   and the first rejection (for `?target=member` and any other path that
 *   names a member: named-member.ts).
 * - `staticCandidates(model, request)`: the members passing the static
 *   filters, in tie order (cached).
 *
 * Tie order. Members a ranking keys alike keep the stack's tie order: join
 * order (LXD/Incus's tie-break) by default. With a `tieSeed`, an order of
 * the seed's own instead (tie-order.ts): servers sharing one database, each
 * with a seed of its own, then fill different members among equals instead
 * of all claiming (and locking) the same first ones.
 *
 * The cache. Static filters do not depend on usage or time, so the members
 * passing all of them are cached per request shape. The shape is the
 * request fields the static filters declare (`keyFields`, derived here,
 * encoded by request-fields.ts), and a member record change empties the
 * cache only when it touches a member field they declare (`memberSignature`,
 * which the model compares on every record change). Each static filter gets
 * views holding only what it declared (guard.ts): a read of anything else
 * throws, so a filter that forgot a field fails loudly instead of serving
 * a stale cached set.
 */
import { EngineError } from "../base/errors.js";
import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import type { MemberRecord } from "../store/records.js";
import { type CandidateSet, listed, type RejectedMember } from "./candidate-set.js";
import {
  admitsAll,
  type FeasibilityFilter,
  type MemberField,
  type RequestView,
  type StaticFilter,
  type StaticMember,
  type Timing,
  type UsageCheck,
  type UsageFilter,
} from "./filter.js";
import { guardedView, readGuard } from "./guard.js";
import { orderByKeys } from "./order.js";
import { pickFirst, type ScanHint } from "./pick-first.js";
import type { Ranker, Ranking } from "./ranker.js";
import type { Rejection } from "./rejection.js";
import { isKeyedField, KEYED_FIELDS, type KeyedField } from "./request-fields.js";
import { joinOrder, seededTieOrder, type TieOrder } from "./tie-order.js";

export interface StackDefinition {
  /** In the order they run; a member's first rejection is the one reported. */
  filters: readonly FeasibilityFilter[];
  /** In the order they refine the ranking (see ranker.ts). */
  rankers: readonly Ranker[];
}

export interface StackOptions {
  /** Ties in this seed's order (tie-order.ts) instead of join order (see "Tie order" above). */
  tieSeed?: number;
}

/** "all": every candidate in rank order, listed; "first": the first is enough. */
export type Wanted = "all" | "first";

interface CachedSet {
  /** Members passing every static filter, in tie order. */
  members: readonly MemberState[];
  /** For pick-first; `owner` is the key function it was learnt for. */
  hint: ScanHint & { owner: ((member: MemberState) => number) | null };
}

interface ModelCache {
  epoch: number;
  sets: Map<string, CachedSet>;
}

/** A filter ready to judge members for one request. */
type BoundFilter =
  | { kind: "static"; filter: StaticFilter; request: RequestView<KeyedField> }
  | { kind: "usage"; check: UsageCheck };

/** Request shapes are few in practice; the bound only guards against unbounded growth. */
const MAX_CACHED_SETS = 1024;

/** Keys every member alike: tie order decides. */
const TIE_ORDER: Ranking = { key: () => 0 };

function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

export class PlacementStack {
  readonly filters: readonly FeasibilityFilter[];
  readonly rankers: readonly Ranker[];
  /** Request fields the candidate cache keys on: every field a static filter declares, in stack order. */
  readonly keyFields: readonly KeyedField[];
  /** Member record fields cached candidate sets depend on: every field a static filter declares. */
  readonly memberFields: readonly MemberField[];
  private readonly staticFilters: readonly StaticFilter[];
  private readonly requestGuards = new Map<FeasibilityFilter, object>();
  private readonly memberGuard: object;
  /**
   * The last key computed and the field values it came from: a stream of
   * requests of one shape shares those values (the expansion, the project's
   * facts, the target are shared and never mutated), so comparing them by
   * identity spares encoding the key for every placement.
   */
  private lastKeyed: { values: unknown[]; key: string } | null = null;
  /** The encoders of `keyFields`, looked up once. */
  private readonly keyEncoders: readonly ((request: PlacementRequest) => unknown)[];
  private readonly caches = new WeakMap<ClusterModel, ModelCache>();
  /** What static filters see of each member, and the record it was built from (rebuilt when it changes). */
  private readonly staticViews = new WeakMap<
    MemberState,
    { record: MemberRecord; view: StaticMember<MemberField> }
  >();
  /**
   * Each usage filter's last bound check and the declared request values it
   * was bound from. `bind` sees only those values, so while a request
   * holds the same ones (===) the check is reused: a stream of creates of
   * one shape binds once.
   */
  private readonly usageSlots: { filter: UsageFilter; values: unknown[]; check: UsageCheck | null }[];
  /** Request fields the usage filters declare, in stack order, and the last `usageKey` computed. */
  private readonly usageFields: readonly (keyof PlacementRequest)[];
  private lastUsageKeyed: { values: unknown[]; key: string } | null = null;
  /** The slots' checks, in stack order (a new array whenever one is bound anew). */
  private boundChecks: readonly UsageCheck[] = [];
  /** Reused key buffer for ordering (placements are planned one at a time). */
  private scratch = new Float64Array(64);

  /** Puts members in tie order (see "Tie order" above). */
  private readonly tieOrder: TieOrder;

  constructor(definition: StackDefinition, options: StackOptions = {}) {
    this.tieOrder = options.tieSeed === undefined ? joinOrder : seededTieOrder(options.tieSeed);
    this.filters = [...definition.filters];
    this.rankers = [...definition.rankers];
    const names = this.filters.map((filter) => filter.name);
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    if (twice !== undefined)
      throw new EngineError("internal", `Two feasibility filters are named "${twice}"`);
    const staticFilters: StaticFilter[] = [];
    const usageFilters: UsageFilter[] = [];
    for (const filter of this.filters) {
      if (filter.kind === "static") {
        const unkeyed = filter.reads.request.find((field) => !isKeyedField(field));
        if (unkeyed !== undefined) {
          throw new EngineError(
            "internal",
            `Static filter "${filter.name}" declares request field "${unkeyed}", which has no cache-key encoding (request-fields.ts)`,
          );
        }
        staticFilters.push(filter);
      } else usageFilters.push(filter);
      this.requestGuards.set(
        filter,
        readGuard(`Filter "${filter.name}"`, "request", filter.reads.request as readonly string[]),
      );
    }
    this.staticFilters = staticFilters;
    this.usageSlots = usageFilters.map((filter) => ({ filter, values: [], check: null }));
    this.usageFields = unique(usageFilters.flatMap((filter) => filter.reads.request));
    this.keyFields = unique(staticFilters.flatMap((filter) => filter.reads.request));
    this.keyEncoders = this.keyFields.map((field) => KEYED_FIELDS[field]);
    this.memberFields = unique(staticFilters.flatMap((filter) => filter.reads.member));
    this.memberGuard = readGuard("A static filter", "member", ["name", ...this.memberFields]);
  }

  /**
   * What cached candidate sets read of a member record: the declared member
   * fields, and the join order (cached sets are in tie order, which starts from it). The model
   * compares it on every record change (heartbeats leave it equal).
   */
  readonly memberSignature = (record: MemberRecord): string => {
    const parts: unknown[] = [record.joinOrder];
    for (const field of this.memberFields) parts.push(record[field]);
    return JSON.stringify(parts);
  };

  /** The candidate cache key of a request: its declared fields, encoded. */
  cacheKey(request: PlacementRequest): string {
    const last = this.lastKeyed;
    if (last !== null && sameValues(request, this.keyFields, last.values)) return last.key;
    const encoders = this.keyEncoders;
    const parts = new Array<unknown>(encoders.length);
    for (let index = 0; index < encoders.length; index++) parts[index] = encoders[index]!(request);
    const key = JSON.stringify(parts);
    this.lastKeyed = { values: this.keyFields.map((field) => request[field]), key };
    return key;
  }

  /** Members passing every static filter, in tie order (cached per request shape). */
  staticCandidates(model: ClusterModel, request: PlacementRequest): readonly MemberState[] {
    return this.cachedSet(model, request).members;
  }

  /**
   * The first filter that turns `member` down for `request`, or undefined
   * when it passes them all (for a member a path names: named-member.ts).
   * `skip` names filters the path has already settled (a restore lifts
   * the evacuation itself; a commit's capacity is already held).
   */
  check(
    member: MemberState,
    request: PlacementRequest,
    time: Timing,
    skip?: ReadonlySet<string>,
  ): Rejection | undefined {
    const filters =
      skip === undefined ? this.filters : this.filters.filter((filter) => !skip.has(filter.name));
    return this.firstRejection(member, this.bind(request, filters), time);
  }

  /** Every member's first rejection (what a "nothing fits" error reports). O(members x filters). */
  explain(model: ClusterModel, request: PlacementRequest, time: Timing): RejectedMember[] {
    const bound = this.bind(request, this.filters);
    const rejected: RejectedMember[] = [];
    for (const member of model.allMembers()) {
      const why = this.firstRejection(member, bound, time);
      if (why !== undefined) rejected.push({ member: member.name, rejection: why });
    }
    return rejected;
  }

  /**
   * Whether a member, already past the static filters, passes the usage
   * filters now: the cheap check a placement runs on each static candidate,
   * bound once for `request`. For explaining a decision without binding
   * every filter for every member (decision/explain.ts).
   */
  admitter(request: PlacementRequest): (member: MemberState, time: Timing) => boolean {
    const checks = this.usageChecks(request);
    return (member, time) => admitsAll(checks, member, time);
  }

  /**
   * The usage filters bound to `request`, in stack order; the same array
   * while requests hold the same declared values (see `usageSlots`).
   */
  usageChecksFor(request: PlacementRequest): readonly UsageCheck[] {
    return this.usageChecks(request);
  }

  /**
   * What the usage filters read of `request`, encoded: requests with equal
   * keys get equal verdicts from them (a decision's explanation is kept per
   * key, decide/usage-verdicts.ts).
   */
  usageKey(request: PlacementRequest): string {
    const last = this.lastUsageKeyed;
    if (last !== null && sameValues(request, this.usageFields, last.values)) return last.key;
    const key = JSON.stringify(this.usageFields.map((field) => request[field] ?? null));
    this.lastUsageKeyed = { values: this.usageFields.map((field) => request[field]), key };
    return key;
  }

  /** Whether a ranking may turn a fitting member down for this request (a strict placement group). */
  turnsDown(model: ClusterModel, request: PlacementRequest): boolean {
    return this.rankingsOf(request, model).some((ranking) => ranking.reject !== undefined);
  }

  /** The members among `members` a ranking turns down (a strict placement group), with why. */
  turnedDownByRankings(
    model: ClusterModel,
    request: PlacementRequest,
    members: readonly MemberState[],
  ): RejectedMember[] {
    const turnedDown: RejectedMember[] = [];
    let remaining = [...members];
    for (const ranking of this.rankingsOf(request, model)) {
      if (ranking.reject !== undefined) remaining = turnDown(remaining, ranking, turnedDown);
    }
    return turnedDown;
  }

  /**
   * `fitting`: the static candidates the usage filters admit now, in order, when the caller keeps
   * those verdicts current (decide/usage-verdicts.ts); the ranking then reads them instead of
   * judging every member again. Only for "all".
   */
  candidates(
    model: ClusterModel,
    request: PlacementRequest,
    time: Timing,
    wanted: Wanted,
    fitting?: MemberState[],
  ): CandidateSet {
    const set = this.cachedSet(model, request);
    const checks = this.usageChecks(request);
    const rankings = this.rankingsOf(request, model);
    // One ranking that only orders: its first candidate is found without ordering anyone.
    if (wanted === "first" && rankings.length <= 1 && rankings[0]?.reject === undefined) {
      const ranking = rankings[0] ?? TIE_ORDER;
      const best = pickFirst(set.members, ranking, checks, time, this.hintFor(set, ranking));
      if (best !== undefined) return { candidates: [best], rejected: [] };
      return { candidates: [], rejected: this.explain(model, request, time) };
    }
    const { ordered, turnedDown } = this.rank(set.members, checks, time, rankings, fitting);
    const rejected = ordered.length > 0 ? [] : [...this.explain(model, request, time), ...turnedDown];
    return wanted === "all" ? listed(model, ordered, rejected, time) : { candidates: ordered, rejected };
  }

  /**
   * The admitted members (`fitting` when the caller knows them), each ranking turning down and
   * ordering in turn.
   */
  private rank(
    members: readonly MemberState[],
    checks: readonly UsageCheck[],
    time: Timing,
    rankings: readonly Ranking[],
    fitting: MemberState[] | undefined,
  ): { ordered: MemberState[]; turnedDown: RejectedMember[] } {
    // One walk over the members: the first ranking's keys are read as each
    // member is admitted (at 10,000 candidates, a second walk is a second
    // round of cache misses). Sized for the worst case up front: grown by
    // push, the array costs three times the allocation.
    const first = rankings[0];
    const keysInWalk = first !== undefined && first.reject === undefined;
    if (keysInWalk && this.scratch.length < members.length) this.scratch = new Float64Array(members.length);
    const keys = this.scratch;
    let feasible = fitting;
    if (feasible === undefined) {
      feasible = new Array<MemberState>(members.length);
      let count = 0;
      for (let index = 0; index < members.length; index++) {
        const member = members[index]!;
        if (!admitsAll(checks, member, time)) continue;
        feasible[count] = member;
        if (keysInWalk) keys[count] = first.key(member);
        count += 1;
      }
      feasible.length = count;
    } else if (keysInWalk) {
      for (let index = 0; index < feasible.length; index++) keys[index] = first.key(feasible[index]!);
    }
    let ordered = feasible;
    const turnedDown: RejectedMember[] = [];
    for (let index = 0; index < rankings.length; index++) {
      const ranking = rankings[index]!;
      if (ranking.reject !== undefined) ordered = turnDown(ordered, ranking, turnedDown);
      ordered = orderByKeys(ordered, index === 0 && keysInWalk ? keys : keysOf(ordered, ranking));
    }
    return { ordered, turnedDown };
  }

  private rankingsOf(request: PlacementRequest, model: ClusterModel): Ranking[] {
    const rankings: Ranking[] = [];
    for (const ranker of this.rankers) {
      const ranking = ranker.rank(request, model);
      if (ranking !== null) rankings.push(ranking);
    }
    return rankings;
  }

  private hintFor(set: CachedSet, ranking: Ranking): ScanHint | null {
    const epoch = ranking.growsOnlyAtEpoch;
    if (epoch === undefined) return null;
    const hint = set.hint;
    if (hint.owner !== ranking.key || hint.epoch !== epoch) {
      hint.owner = ranking.key;
      hint.epoch = epoch;
      hint.floor = Number.NaN;
      hint.cursor = 0;
    }
    return hint;
  }

  /** The usage filters bound to this placement's request (see `usageSlots`). */
  private usageChecks(request: PlacementRequest): readonly UsageCheck[] {
    let rebound = false;
    for (const slot of this.usageSlots) {
      const fields = slot.filter.reads.request;
      if (slot.check !== null && sameValues(request, fields, slot.values)) continue;
      slot.check = slot.filter.bind(this.requestView(slot.filter, request));
      slot.values = fields.map((field) => request[field]);
      rebound = true;
    }
    if (rebound) this.boundChecks = this.usageSlots.map((slot) => slot.check!);
    return this.boundChecks;
  }

  private cachedSet(model: ClusterModel, request: PlacementRequest): CachedSet {
    let cache = this.caches.get(model);
    if (cache === undefined || cache.epoch !== model.staticEpoch) {
      cache = { epoch: model.staticEpoch, sets: new Map() };
      this.caches.set(model, cache);
    }
    const key = this.cacheKey(request);
    let set = cache.sets.get(key);
    if (set === undefined) {
      if (cache.sets.size >= MAX_CACHED_SETS) cache.sets.clear();
      const bound = this.bind(request, this.staticFilters);
      const members = this.tieOrder(model.allMembers().filter((member) => this.passesStatic(member, bound)));
      set = { members, hint: { owner: null, epoch: -1, floor: Number.NaN, cursor: 0 } };
      cache.sets.set(key, set);
    }
    return set;
  }

  private passesStatic(member: MemberState, bound: readonly BoundFilter[]): boolean {
    const view = this.staticMember(member);
    for (const step of bound) {
      if (step.kind === "static" && step.filter.reject(view, step.request) !== undefined) return false;
    }
    return true;
  }

  private bind(request: PlacementRequest, filters: readonly FeasibilityFilter[]): BoundFilter[] {
    return filters.map((filter) =>
      filter.kind === "static"
        ? { kind: "static", filter, request: this.requestView(filter, request) as RequestView<KeyedField> }
        : { kind: "usage", check: filter.bind(this.requestView(filter, request)) },
    );
  }

  private firstRejection(
    member: MemberState,
    bound: readonly BoundFilter[],
    time: Timing,
  ): Rejection | undefined {
    for (const step of bound) {
      const why =
        step.kind === "static"
          ? step.filter.reject(this.staticMember(member), step.request)
          : step.check.reject(member, time);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** The request as `filter` may see it: its declared fields only. */
  private requestView(
    filter: FeasibilityFilter,
    request: PlacementRequest,
  ): RequestView<keyof PlacementRequest> {
    return guardedView(request, filter.reads.request, this.requestGuards.get(filter)!);
  }

  /** The member as static filters may see it: its name and the declared fields (built once per record). */
  private staticMember(member: MemberState): StaticMember<MemberField> {
    const cached = this.staticViews.get(member);
    if (cached !== undefined && cached.record === member.record) return cached.view;
    const view = guardedView(member.record, ["name", ...this.memberFields], this.memberGuard);
    this.staticViews.set(member, { record: member.record, view });
    return view;
  }
}

/** Does `request` hold `values` (by identity) in `fields`? */
function sameValues(
  request: PlacementRequest,
  fields: readonly (keyof PlacementRequest)[],
  values: readonly unknown[],
): boolean {
  for (let index = 0; index < fields.length; index++) {
    if (request[fields[index]!] !== values[index]) return false;
  }
  return true;
}

/** Drops the members `ranking` turns down, noting why, keeping the order. */
function turnDown(members: MemberState[], ranking: Ranking, turnedDown: RejectedMember[]): MemberState[] {
  return members.filter((member) => {
    const why = ranking.reject!(member);
    if (why === undefined) return true;
    turnedDown.push({ member: member.name, rejection: why });
    return false;
  });
}

function keysOf(members: readonly MemberState[], ranking: Ranking): Float64Array {
  const keys = new Float64Array(members.length);
  for (let index = 0; index < members.length; index++) keys[index] = ranking.key(members[index]!);
  return keys;
}
