/**
 * The memory store's Placement consumers: consumer rows plus the used
 * amounts per provider and class they add up to, changed together by
 * `claim` between two awaits (so a claim is atomic in one process).
 */

import { consumerClaimEntry } from "../rules/claims/claim-effect.js";
import type { ProviderRows } from "../rules/claims/rows.js";
import { addToLedger, type UsageChange } from "../rules/claims/usage-after.js";
import {
  type CheckedConsumerClaim,
  checkConsumerClaim,
  consumerProvidersToRead,
} from "../rules/ledger/consumer-claim.js";
import type { InstanceConsumers } from "../rules/ledger/instance-consumers.js";
import {
  explicitInventories,
  type MemberRootRows,
  memberRootReshapes,
  memberRootRow,
  type ReshapeMemberRoot,
  reshapedMemberOf,
  withMemberRootRows,
} from "../rules/ledger/member-root.js";
import { checkReshape, type ReshapeProviderRows, reshapeProvidersToRead } from "../rules/ledger/reshape.js";
import { isMemberRoot, memberProviderUuid, sharedLedgerRows } from "../rules/ledger/shared-ledger.js";
import type { ChangeEntry } from "../store/change-feed.js";
import { cloneJson } from "../store/clone.js";
import type { ConsumerTable, ConsumerWrite, ReshapeWrite } from "../store/port.js";
import type { ConsumerRecord, InventoryRecord, ProviderRecord } from "../store/records.js";
import type { MemoryCatalog } from "./memory-catalog.js";

/** The memory store's members as the consumers' writes need them. */
export interface MemoryMembers {
  /** A member's inventories and instance ledgers (its rows for an instance claim), if it exists. */
  rows(name: string): ProviderRows | undefined;
  /** A member's inventories, one ledger (its root's consumers too) and generation, if it exists. */
  root(name: string): MemberRootRows["member"] | undefined;
  /** Writes a member's inventories at `generation` (a reshape of its root), with its feed entry. */
  setInventories(name: string, inventories: Record<string, InventoryRecord>, generation: number): void;
}

/** No usage: shared, and frozen so that no caller can write to it. */
const NOTHING_USED: Readonly<Record<string, number>> = Object.freeze({});

export class MemoryConsumers implements ConsumerTable {
  private readonly rows = new Map<string, ConsumerRecord>();
  /** Used amounts per provider uuid and class (non-zero only). */
  private readonly used = new Map<string, Record<string, number>>();

  constructor(
    private readonly providers: MemoryCatalog<ProviderRecord>,
    private readonly now: () => string,
    private readonly members: MemoryMembers,
    /** Appends the claim's change-feed entry (engines apply its member usage). */
    private readonly logged: (entry: ChangeEntry) => void,
    /** True for a stored instance's id (its consumer is written by instance claims only). */
    private readonly isInstance: (id: string) => boolean,
  ) {}

  /** The written uuids that are instances' ids. */
  private instancesOf(writes: readonly ConsumerWrite[]): Set<string> {
    return new Set(writes.map((write) => write.record.uuid).filter((uuid) => this.isInstance(uuid)));
  }

  /** True when a consumer of that uuid exists (instance ids and consumer uuids share one namespace). */
  has(uuid: string): boolean {
    return this.rows.has(uuid);
  }

  /** What an instance claim writes for its instances' rows on child providers (rules/ledger/instance-consumers.ts). */
  writeInstanceConsumers(written: InstanceConsumers): void {
    for (const uuid of written.deleted) this.rows.delete(uuid);
    for (const record of written.stored) this.rows.set(record.uuid, cloneJson(record));
    this.addUsage(written.usageChanges);
    for (const uuid of written.providersChanged) {
      const provider = this.providers.peek(uuid);
      if (provider !== undefined)
        this.providers.replace({ ...provider, generation: provider.generation + 1 }, false);
    }
  }

  /** Synchronous, for the providers table's in-use checks. */
  usedOn(provider: string): Readonly<Record<string, number>> {
    return this.used.get(provider) ?? {};
  }

  /**
   * What the Placement consumers hold on the root provider of member `name`.
   * With no consumer usage anywhere (an LXD-only cluster) every instance
   * claim would otherwise look up the member's root uuid for nothing.
   */
  usedOnMember(name: string): Readonly<Record<string, number>> {
    if (this.used.size === 0) return NOTHING_USED;
    return this.usedOn(memberProviderUuid(name));
  }

  /** A provider's rows for a consumer claim: a member's root counts the member's instances too. */
  private rowsOf(provider: ProviderRecord): ProviderRows {
    const member = isMemberRoot(provider.uuid, provider.name) ? this.members.rows(provider.name) : undefined;
    if (member !== undefined) return sharedLedgerRows(member, this.usedOn(provider.uuid));
    return { inventories: provider.inventories, used: this.usedOn(provider.uuid), forthcoming: {} };
  }

  async get(uuid: string): Promise<ConsumerRecord | undefined> {
    const row = this.rows.get(uuid);
    return row === undefined ? undefined : cloneJson(row);
  }

  async list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    const out: ConsumerRecord[] = [];
    for (const row of this.rows.values()) {
      if (filter.provider !== undefined && !row.allocations.some((a) => a.member === filter.provider))
        continue;
      if (filter.project !== undefined && row.projectId !== filter.project) continue;
      if (filter.user !== undefined && row.userId !== filter.user) continue;
      out.push(cloneJson(row));
    }
    return out;
  }

  /** Every non-zero sum, for the store's snapshot. */
  usageRows(): [string, string, number][] {
    return [...this.used].flatMap(([provider, ledger]) =>
      Object.entries(ledger).map(
        ([resourceClass, amount]) => [provider, resourceClass, amount] as [string, string, number],
      ),
    );
  }

  async usage(providers?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    const names = providers ?? [...this.used.keys()];
    return new Map(names.map((name) => [name, { ...(this.used.get(name) ?? {}) }]));
  }

  async claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    const consumers = this.currentOf(writes);
    const providers = new Map<string, ProviderRows>();
    for (const uuid of consumerProvidersToRead(writes, consumers)) {
      const provider = this.providers.peek(uuid);
      if (provider !== undefined) providers.set(uuid, this.rowsOf(provider));
    }
    const checked = checkConsumerClaim(
      writes,
      { consumers, providers, instances: this.instancesOf(writes) },
      this.now(),
    );
    const bumped: [string, number][] = [];
    for (const uuid of checked.providersChanged) {
      const provider = this.providers.peek(uuid);
      if (provider === undefined) continue;
      this.providers.replace({ ...provider, generation: provider.generation + 1 }, false);
      bumped.push([uuid, provider.generation + 1]);
    }
    this.write(checked, bumped);
    return checked.stored.map((record) => cloneJson(record));
  }

  /**
   * Placement's reshaper: inventories and consumers, checked and written
   * between two awaits. A member's root is read as its member (with or
   * without a row) and writes the member's inventories (member-root.ts).
   */
  async reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    const consumers = this.currentOf(change.writes);
    const providers = new Map<string, ReshapeProviderRows>();
    const roots = new Map<string, ReshapeMemberRoot>();
    for (const uuid of reshapeProvidersToRead(change, consumers)) {
      const provider = this.providers.peek(uuid);
      const member = reshapedMemberOf(uuid, provider?.name, change);
      const rows = member === undefined ? undefined : this.members.root(member);
      if (member !== undefined && rows !== undefined)
        roots.set(uuid, { member, rows, rowGeneration: provider?.generation });
      else if (provider !== undefined)
        providers.set(uuid, { ...this.rowsOf(provider), generation: provider.generation });
    }
    withMemberRootRows(providers, roots);
    const now = this.now();
    const checked = checkReshape(
      change,
      { consumers, providers, instances: this.instancesOf(change.writes) },
      now,
    );
    const split = memberRootReshapes(change, checked, roots);
    for (const written of split.providers) {
      const provider = this.providers.peek(written.uuid);
      if (provider !== undefined) this.providers.replace({ ...provider, ...written, updatedAt: now });
    }
    for (const root of split.roots) {
      if (root.inventories !== undefined)
        this.members.setInventories(
          root.member,
          explicitInventories(root.inventories),
          root.memberGeneration,
        );
      const row = this.providers.peek(root.uuid) ?? memberRootRow(root.member, now);
      this.providers.replace({
        ...row,
        inventories: {},
        traits: [],
        generation: root.rowGeneration,
        updatedAt: now,
      });
    }
    this.write(checked.consumers, [
      ...split.providers.map((p) => [p.uuid, p.generation] as const),
      ...split.roots.map((r) => [r.uuid, r.rowGeneration] as const),
    ]);
    return checked.consumers.stored.map((record) => cloneJson(record));
  }

  /** Adds usage changes to the providers' sums (ledger-blind: every consumer row is "used"). */
  private addUsage(changes: readonly UsageChange[]): void {
    for (const change of changes) {
      const ledger = { ...(this.used.get(change.provider) ?? {}) };
      addToLedger(ledger, change.resourceClass, change.amount);
      if (Object.keys(ledger).length === 0) this.used.delete(change.provider);
      else this.used.set(change.provider, ledger);
    }
  }

  /** The written consumers' current rows. */
  private currentOf(writes: readonly ConsumerWrite[]): Map<string, ConsumerRecord> {
    const consumers = new Map<string, ConsumerRecord>();
    for (const write of writes) {
      const current = this.rows.get(write.record.uuid);
      if (current !== undefined) consumers.set(current.uuid, current);
    }
    return consumers;
  }

  /** Writes checked consumers and their used sums, and logs the claim's feed entry (one ledger). */
  private write(
    checked: Pick<CheckedConsumerClaim, "deleted" | "stored" | "usageChanges">,
    bumped: readonly (readonly [string, number])[],
  ): void {
    for (const uuid of checked.deleted) this.rows.delete(uuid);
    for (const record of checked.stored) this.rows.set(record.uuid, cloneJson(record));
    this.addUsage(checked.usageChanges);
    this.logged(
      consumerClaimEntry(
        checked,
        (uuid) => {
          const provider = this.providers.peek(uuid);
          return provider !== undefined && isMemberRoot(uuid, provider.name) ? provider.name : undefined;
        },
        bumped,
      ),
    );
  }
}
