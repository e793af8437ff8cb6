import {
  type ChangeFeed,
  type CommittedWriteListener,
  CommittedWrites,
  type ConfigRecord,
  EngineError,
  type InstanceFilter,
  type InstanceRecord,
  type InventoryRecord,
  type MemberPatch,
  type MemberRecord,
  type MemberRootWrite,
  type MemberRootWritten,
  type MemberUsage,
  type NewMember,
  patchMovesFeed,
} from "@berth/engine";
import { writeMemberRoot } from "../members/member-root-writes.js";
import type { MemberSide } from "../members/member-side.js";
import {
  createMember,
  deleteMember,
  setGroupMembers,
  setInventories,
  updateMember,
} from "../members/member-writes.js";
import { listInstances, loadInstanceByName, loadInstancesByIds } from "../rows/instances.js";
import { readMemberUsage } from "../rows/member-usage.js";
import { loadMember, loadMembers } from "../rows/members.js";
import { readConfig, readConfigVersion, writeConfig } from "../rows/server-config.js";
import type { SqlRunner } from "../runner/runner.js";
import type { SqlCatalogs } from "./catalog-table.js";
import type { SqlConsumers } from "./consumer-table.js";
import type { SqlTokenStore, SqlTrustStore } from "./credential-stores.js";
import { acquireLease, releaseLease } from "./leases.js";

/** The parts each store builds on its connection and hands to `useParts`. */
export type StoreParts = SqlCatalogs & {
  consumers: SqlConsumers;
  feed: ChangeFeed;
  tokens: SqlTokenStore;
  trust: SqlTrustStore;
};

/**
 * What both SQL stores do the same way with the Store port, for them to
 * extend: the catalog fields, the reads that are the same statements in
 * both dialects, the member writes, the server configuration and the
 * committed-write listeners. Each store says only how one transaction runs
 * (`readRows`, `writeMembers`: its connection or pool, its
 * closed-store check, how it appends change-feed entries and locks members).
 */
export abstract class SqlStoreCore {
  declare readonly groups: SqlCatalogs["groups"];
  declare readonly projects: SqlCatalogs["projects"];
  declare readonly profiles: SqlCatalogs["profiles"];
  declare readonly flavors: SqlCatalogs["flavors"];
  declare readonly images: SqlCatalogs["images"];
  declare readonly placementGroups: SqlCatalogs["placementGroups"];
  declare readonly resourceClasses: SqlCatalogs["resourceClasses"];
  declare readonly providers: SqlCatalogs["providers"];
  declare readonly traits: SqlCatalogs["traits"];

  declare readonly consumers: SqlConsumers;
  /** See the engine's store/change-feed.ts and each adapter's feed.ts. */
  declare readonly feed: ChangeFeed;
  /** The server's API tokens, in this database (not part of the engine's Store port). */
  declare readonly tokens: SqlTokenStore;
  /** berthd's trusted client certificates and pending trust tokens (not part of the engine's Store port). */
  declare readonly trust: SqlTrustStore;

  /** What each committed write transaction appended (each adapter's feed writes report it). */
  protected readonly committedWrites = new CommittedWrites();

  /** Set once `close()` began: every later call is refused. */
  protected closed = false;

  /** Refuses work on a closed store (an `internal` error: a caller used it after closing it). */
  protected refuseWhenClosed(): void {
    if (this.closed) throw new EngineError("internal", "store is closed");
  }

  /** Runs `work` in one read transaction of the store. */
  protected abstract readRows<T>(work: (db: SqlRunner) => Promise<T>): Promise<T>;

  /**
   * Runs a member write in one write transaction with the store's member
   * side; `movesFeed` false: it appended no change-feed entry (a heartbeat),
   * so no other server needs waking.
   */
  protected abstract writeMembers<T>(
    work: (db: SqlRunner, side: MemberSide) => Promise<T>,
    movesFeed?: boolean,
  ): Promise<T>;

  /** `now`: the clock that dates new members and member roots (tests set it). */
  constructor(protected readonly now: () => string = () => new Date().toISOString()) {}

  /** Sets the catalog, consumer, feed and credential fields (in the store's constructor). */
  protected useParts(parts: StoreParts): void {
    Object.assign(this, parts);
  }

  /** Acquires or renews a named lease (leases.ts); it appends no change-feed entry. */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.writeMembers((db) => acquireLease(db, name, holder, ttlMs), false);
  }

  releaseLease(name: string, holder: string): Promise<void> {
    return this.writeMembers((db) => releaseLease(db, name, holder), false);
  }

  createMember(member: NewMember): Promise<MemberRecord> {
    return this.writeMembers((db, side) => createMember(db, side, member, this.now()));
  }

  updateMember(
    name: string,
    patch: MemberPatch,
    expectedGeneration?: number,
    expectedFields?: MemberPatch,
  ): Promise<MemberRecord> {
    return this.writeMembers(
      (db, side) => updateMember(db, side, name, patch, expectedGeneration, expectedFields),
      patchMovesFeed(patch),
    );
  }

  setGroupMembers(group: string, members: readonly string[]): Promise<MemberRecord[]> {
    return this.writeMembers((db, side) => setGroupMembers(db, side, group, members));
  }

  setInventories(
    name: string,
    inventories: Record<string, InventoryRecord>,
    expectedGeneration: number,
  ): Promise<MemberRecord> {
    return this.writeMembers((db, side) => setInventories(db, side, name, inventories, expectedGeneration));
  }

  deleteMember(name: string): Promise<void> {
    return this.writeMembers((db, side) => deleteMember(db, side, name));
  }

  writeMemberRoot(write: MemberRootWrite): Promise<MemberRootWritten> {
    return this.writeMembers((db, side) => writeMemberRoot(db, side, write, this.now()));
  }

  onCommittedWrite(listener: CommittedWriteListener): () => void {
    return this.committedWrites.listen(listener);
  }

  setConfig(patch: Record<string, string | null>, expectedVersion?: number): Promise<ConfigRecord> {
    return this.writeMembers(async (db, side) => {
      const written = await writeConfig(db, patch, expectedVersion);
      await side.append([{ kind: "config" }]);
      return written;
    });
  }

  listMembers(): Promise<MemberRecord[]> {
    return this.readRows((db) => loadMembers(db));
  }

  getMember(name: string): Promise<MemberRecord | undefined> {
    return this.readRows((db) => loadMember(db, name));
  }

  getInstance(project: string, name: string): Promise<InstanceRecord | undefined> {
    return this.readRows((db) => loadInstanceByName(db, project, name));
  }

  async getInstanceById(id: string): Promise<InstanceRecord | undefined> {
    return (await this.readRows((db) => loadInstancesByIds(db, [id])))[0];
  }

  listInstances(filter: InstanceFilter = {}): Promise<InstanceRecord[]> {
    return this.readRows((db) => listInstances(db, filter));
  }

  memberUsage(names: string[]): Promise<MemberUsage[]> {
    return this.readRows((db) => readMemberUsage(db, names));
  }

  getConfig(): Promise<ConfigRecord> {
    return this.readRows((db) => readConfig(db));
  }

  getConfigVersion(): Promise<number> {
    return this.readRows((db) => readConfigVersion(db));
  }
}
