import {
  type CommittedWriteListener,
  CommittedWrites,
  type ConfigRecord,
  type InstanceFilter,
  type InstanceRecord,
  type MemberRecord,
  type MemberUsage,
} from "@berth/engine";
import type { AppendChanges } from "../catalogs/catalog-rows.js";
import { listInstances, loadInstanceByName, loadInstancesByIds } from "../rows/instances.js";
import { readMemberUsage } from "../rows/member-usage.js";
import { loadMember, loadMembers } from "../rows/members.js";
import { readConfig, readConfigVersion, writeConfig } from "../rows/server-config.js";
import type { SqlRunner } from "../runner/runner.js";

/**
 * What both SQL stores do the same way with the Store port, for them to
 * extend: the reads that are the same statements in both dialects, the
 * server configuration and the committed-write listeners. Each store says
 * only how one transaction runs (`readRows`, `writeRows`: its connection
 * or pool, its closed-store check, how it appends change-feed entries).
 */
export abstract class SqlStoreCore {
  /** What each committed write transaction appended (each adapter's feed writes report it). */
  protected readonly committedWrites = new CommittedWrites();

  /** Runs `work` in one read transaction of the store. */
  protected abstract readRows<T>(work: (db: SqlRunner) => Promise<T>): Promise<T>;

  /** Runs `work` in one write transaction of the store; `append` adds change-feed entries to it. */
  protected abstract writeRows<T>(work: (db: SqlRunner, append: AppendChanges) => Promise<T>): Promise<T>;

  onCommittedWrite(listener: CommittedWriteListener): () => void {
    return this.committedWrites.listen(listener);
  }

  setConfig(patch: Record<string, string | null>, expectedVersion?: number): Promise<ConfigRecord> {
    return this.writeRows(async (db, append) => {
      const written = await writeConfig(db, patch, expectedVersion);
      await append([{ kind: "config" }]);
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
