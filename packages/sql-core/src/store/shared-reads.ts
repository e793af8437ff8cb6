import type { ConfigRecord, InstanceFilter, InstanceRecord, MemberRecord, MemberUsage } from "@berth/engine";
import { listInstances, loadInstanceByName, loadInstancesByIds } from "../rows/instances.js";
import { readMemberUsage } from "../rows/member-usage.js";
import { loadMember, loadMembers } from "../rows/members.js";
import { readConfig, readConfigVersion } from "../rows/server-config.js";
import type { SqlRunner } from "../runner/runner.js";

/**
 * The Store port's reads that are the same statements in both dialects,
 * for both SQL stores to extend: each says only how one read transaction
 * runs (`readRows`: its connection or pool, its closed-store check).
 */
export abstract class SqlStoreReads {
  /** Runs `work` in one read transaction of the store. */
  protected abstract readRows<T>(work: (db: SqlRunner) => Promise<T>): Promise<T>;

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
