/**
 * Every provider as Placement shows it (the provider model's rows, every
 * member as a root provider: member-roots.ts) and what each holds, kept
 * between requests, so a request costs what it reads, not a pass over every
 * provider and member.
 *
 * Two layers, each dropped only when what it shows changed:
 * - the layout (which rows are member roots, and the candidates' index over
 *   the providers, candidate-index.ts) holds while the rows' shape holds
 *   (the provider model's `rowsRevision`: a claim only bumps generations,
 *   which the index never reads, so a claim costs no rebuild) and every
 *   member's root shows the same (a member's record is replaced on every
 *   heartbeat, so a new record is compared by what its root shows);
 * - the provider list (what listings show, generations included) holds
 *   while the provider model hands out the same rows array, and is built
 *   on first use.
 * Usage is never copied: it reads through to the live ledgers (the
 * consumers' sums, a member's instances and reservations).
 */

import type { MemberState } from "../model/member-state.js";
import { memberProviderUuid } from "../rules/ledger/shared-ledger.js";
import type { MemberRecord, ProviderRecord } from "../store/records.js";
import { CandidateIndex } from "./candidate-index.js";
import type { ProviderUsage } from "./filter.js";
import { memberRoot, memberRootUsage } from "./member-roots.js";

type Used = Readonly<Record<string, number>>;

/** What holds while the rows' shape and the members' roots hold. */
interface Layout {
  /** The provider model's rows revision it was built at; undefined: built over a read that raced a change. */
  shape: number | undefined;
  /** The members, and the record each one's root was built from. */
  members: { member: MemberState; record: MemberRecord }[];
  /** The providers shown as a member's root, by uuid: their usage is the member's ledger. */
  memberRoots: Map<string, MemberState>;
  /** Members whose root has no row yet (shown from the member alone). */
  virtualRoots: MemberState[];
  /** Built on the first candidates request. Its rows may carry an older generation, which it never reads. */
  index: CandidateIndex | null;
}

export class ProviderView {
  private list: readonly ProviderRecord[] | null = null;
  /** What each provider's classes hold now. */
  readonly usage: ProviderUsage;

  constructor(
    private readonly rows: readonly ProviderRecord[],
    private readonly layout: Layout,
    consumers: ReadonlyMap<string, Used>,
  ) {
    const memberRoots = layout.memberRoots;
    this.usage = {
      get: (uuid) => {
        const member = memberRoots.get(uuid);
        return member === undefined ? consumers.get(uuid) : memberRootUsage(member);
      },
    };
  }

  /** Every provider, in creation order (shared objects: callers never change them). */
  get providers(): readonly ProviderRecord[] {
    this.list ??= this.merge();
    return this.list;
  }

  /** The allocation-candidates index over the providers, built once per layout. */
  candidateIndex(): CandidateIndex {
    this.layout.index ??= new CandidateIndex(this.providers);
    return this.layout.index;
  }

  private merge(): ProviderRecord[] {
    const { memberRoots, virtualRoots } = this.layout;
    const providers = this.rows.map((row) => {
      const member = memberRoots.get(row.uuid);
      return member === undefined || !rootRowOf(row, member) ? row : memberRoot(member.record, row);
    });
    if (virtualRoots.length === 0) return providers;
    for (const member of virtualRoots) providers.push(memberRoot(member.record, undefined));
    return providers.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

/** The row is the member's root provider (by uuid, a root named as the member). */
const rootRowOf = (row: ProviderRecord, member: MemberState) =>
  row.parentUuid === null && row.name === member.name;

const sameStrings = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

function sameFields(a: object, b: object): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

/** True when the two records' roots show the same (what `memberRoot` reads). */
function sameRoot(a: MemberRecord, b: MemberRecord): boolean {
  if (a.name !== b.name || a.generation !== b.generation || a.createdAt !== b.createdAt) return false;
  if (!sameStrings(a.traits, b.traits)) return false;
  const classes = Object.keys(a.inventories);
  if (classes.length !== Object.keys(b.inventories).length) return false;
  return classes.every((resourceClass) => {
    const other = b.inventories[resourceClass];
    return other !== undefined && sameFields(a.inventories[resourceClass] as object, other);
  });
}

export class ProviderViews {
  private layout: Layout | null = null;
  private view: ProviderView | null = null;
  private rows: readonly ProviderRecord[] | null = null;
  private consumers: ReadonlyMap<string, Used> | null = null;

  /**
   * The view over these rows (read at `shape`; undefined when the read
   * raced a change), members and consumers' sums: the last one while it
   * still holds.
   */
  current(
    rows: readonly ProviderRecord[],
    shape: number | undefined,
    members: readonly MemberState[],
    consumers: ReadonlyMap<string, Used>,
  ): ProviderView {
    let layout = this.layout;
    const layoutHolds =
      layout !== null && shape !== undefined && layout.shape === shape && holds(layout, members);
    if (layoutHolds && this.view !== null && rows === this.rows && consumers === this.consumers)
      return this.view;
    if (!layoutHolds || layout === null) layout = this.lay(rows, shape, members);
    this.layout = layout;
    this.rows = rows;
    this.consumers = consumers;
    this.view = new ProviderView(rows, layout, consumers);
    return this.view;
  }

  private lay(
    rows: readonly ProviderRecord[],
    shape: number | undefined,
    members: readonly MemberState[],
  ): Layout {
    const pending = new Map<string, MemberState>();
    for (const member of members) pending.set(memberProviderUuid(member.name), member);
    const memberRoots = new Map<string, MemberState>();
    for (const row of rows) {
      const member = pending.get(row.uuid);
      if (member === undefined || !rootRowOf(row, member)) continue;
      pending.delete(row.uuid);
      memberRoots.set(row.uuid, member);
    }
    for (const [uuid, member] of pending) memberRoots.set(uuid, member);
    return {
      shape,
      members: members.map((member) => ({ member, record: member.record })),
      memberRoots,
      virtualRoots: [...pending.values()],
      index: null,
    };
  }
}

/** True when the members are the layout's and each one's root shows the same. */
function holds(layout: Layout, members: readonly MemberState[]): boolean {
  if (members.length !== layout.members.length) return false;
  for (let index = 0; index < members.length; index++) {
    const member = members[index] as MemberState;
    const entry = layout.members[index] as { member: MemberState; record: MemberRecord };
    if (entry.member !== member) return false;
    if (entry.record === member.record) continue;
    if (!sameRoot(entry.record, member.record)) return false;
    entry.record = member.record;
  }
  return true;
}
