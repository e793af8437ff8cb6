/**
 * A complete in-memory Store: useful for embedding, tests and simulations.
 *
 * Atomicity comes from JavaScript's run-to-completion: `claim` validates and
 * applies synchronously between two awaits, so no other claim can interleave.
 * Usage per member is kept incrementally so a claim costs O(rows it touches).
 */

import { conflict, EngineError } from "../base/errors.js";
import { consumedOf } from "../rules/claims/capacity.js";
import { checkClaim } from "../rules/claims/check-claim.js";
import { claimEntryAndResultOf } from "../rules/claims/claim-effect.js";
import { claimOfOneShape } from "../rules/claims/claim-shape.js";
import { addFailover } from "../rules/claims/mirrors.js";
import {
  addProjectTotals,
  countInProject,
  type ProjectTotals,
  zeroProjectTotals,
} from "../rules/claims/project-usage.js";
import { claimReads, projectTotalsToRead, providersToRead } from "../rules/claims/reads.js";
import { type ClaimRows, nameKey, type ProviderRows } from "../rules/claims/rows.js";
import { addToLedger } from "../rules/claims/usage-after.js";
import { checkMemberRootWrite, explicitInventories, memberRootRow } from "../rules/ledger/member-root.js";
import {
  memberProviderUuid,
  placementProviderRows,
  sharedLedgerRows,
  withConsumersUsed,
} from "../rules/ledger/shared-ledger.js";
import {
  groupInUse,
  placementGroupInUse,
  profileInUse,
  projectInUse,
  providerInUse,
  resourceClassInUse,
  traitInUse,
} from "../rules/writes/catalog-in-use.js";
import { checkProviderWrite, requireProject } from "../rules/writes/catalog-references.js";
import { checkGroupMembers } from "../rules/writes/group-members.js";
import { checkMemberCreate } from "../rules/writes/member-create.js";
import { checkMemberDelete } from "../rules/writes/member-delete.js";
import { memberEntry } from "../rules/writes/member-entries.js";
import { requireMemberRow } from "../rules/writes/member-generation.js";
import { checkMemberInventories } from "../rules/writes/member-inventories.js";
import { customClassesOf, requireCustomClasses } from "../rules/writes/member-references.js";
import { checkMemberUpdate } from "../rules/writes/member-update.js";
import { customTraitsOf, requireCustomTraits } from "../rules/writes/provider-traits.js";
import type { ChangeEntry, ChangeFeed } from "../store/change-feed.js";
import { cloneInstance, cloneJson, cloneMember, storedInstance } from "../store/clone.js";
import type {
  CatalogTable,
  Claim,
  ClaimResult,
  CommittedWriteListener,
  InstanceCountRow,
  InstanceFilter,
  MemberPatch,
  MemberRootWrite,
  MemberRootWritten,
  MemberUsage,
  NewMember,
  PlacementGroupCountRow,
  ProjectUsageRow,
  Store,
  StoreSnapshot,
} from "../store/port.js";
import type {
  ConfigRecord,
  FlavorRecord,
  GroupRecord,
  ImageRecord,
  InstanceRecord,
  InventoryRecord,
  MemberRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
  ProviderRecord,
  ResourceClassRecord,
  TraitRecord,
} from "../store/records.js";
import { FeedLog } from "./feed-log.js";
import { MemoryCatalog } from "./memory-catalog.js";
import { MemoryConsumers } from "./memory-consumers.js";

/**
 * The empty rows of a claim that read nothing into them, shared by every
 * claim: the claim rules only read their rows (`foldClaim`, the one that
 * writes, serves the SQL stores' group commits, never this store).
 */
const NOTHING_READ: Pick<ClaimRows, "instances" | "takenIds" | "nameHolders" | "projectTotals"> = {
  instances: new Map(),
  takenIds: new Set(),
  nameHolders: new Map(),
  projectTotals: new Map(),
};

/** A member's consumption per class, per ledger (non-zero amounts only): the claim rules read it as is. */
interface Ledgers {
  used: Record<string, number>;
  forthcoming: Record<string, number>;
}

/** How a memory store is set up. */
export interface MemoryStoreOptions {
  /**
   * How much of the change feed is kept, in weight units (an entry weighs 1
   * plus the counted changes and usage rows it carries); a reader further
   * behind re-hydrates from a snapshot. Default 100,000 (`DEFAULT_FEED_WEIGHT_KEPT`, feed-log.ts).
   */
  feedWeightKept?: number;
}

/**
 * The whole `Store` port in memory, with the change feed and leases: for tests, simulations, the
 * Ganeti allocator and embedders that need no durability. Calls the same claim rules as the SQL
 * Stores.
 */
export class MemoryStore implements Store {
  private readonly members = new Map<string, MemberRecord>();
  private readonly usage = new Map<string, Ledgers>();
  /** Mirrored memory per secondary, per primary (rules/claims/mirrors.ts), kept with every claim. */
  private readonly failover = new Map<string, Record<string, number>>();
  private readonly instances = new Map<string, InstanceRecord>();
  private readonly instanceNames = new Map<string, string>();
  private readonly projectTotals = new Map<string, ProjectTotals>();
  private config: ConfigRecord = { version: 0, values: {} };
  private nextJoinOrder = 1;
  private closed = false;
  /** The change feed (store/change-feed.ts): the newest entries; a cursor counts the entries before it. */
  private readonly log: FeedLog;
  readonly feed: ChangeFeed = {
    read: async (cursor) => {
      this.assertOpen();
      return this.log.read(Number(cursor));
    },
  };

  onCommittedWrite(listener: CommittedWriteListener): () => void {
    return this.log.listen(listener);
  }

  readonly groups: MemoryCatalog<GroupRecord>;
  readonly projects: MemoryCatalog<ProjectRecord>;
  readonly profiles: MemoryCatalog<ProfileRecord>;
  readonly flavors: CatalogTable<FlavorRecord>;
  readonly images: CatalogTable<ImageRecord>;
  readonly placementGroups: MemoryCatalog<PlacementGroupRecord>;
  readonly resourceClasses: MemoryCatalog<ResourceClassRecord>;
  readonly providers: MemoryCatalog<ProviderRecord>;
  readonly traits: MemoryCatalog<TraitRecord>;
  readonly consumers: MemoryConsumers;

  constructor(options: MemoryStoreOptions = {}) {
    this.log = new FeedLog(options.feedWeightKept);
    const log = (entry: ChangeEntry) => this.log.push(entry);
    const instancesWhere = (predicate: (i: InstanceRecord) => boolean) => {
      let count = 0;
      for (const instance of this.instances.values()) if (predicate(instance)) count += 1;
      return count;
    };
    const projectExists = (project: string) => requireProject(project, this.projects.has({ name: project }));
    this.groups = new MemoryCatalog<GroupRecord>({
      table: "groups",
      log,
      keyOf: (g) => ({ name: g.name }),
      inUse: (key) =>
        groupInUse([...this.members.values()].filter((m) => m.groups.includes(key.name)).length),
    });
    this.projects = new MemoryCatalog<ProjectRecord>({
      table: "projects",
      log,
      keyOf: (p) => ({ name: p.name }),
      inUse: (key) =>
        projectInUse({
          instances: instancesWhere((i) => i.project === key.name),
          hasProfiles: this.profiles.values().some((p) => p.project === key.name),
          hasPlacementGroups: this.placementGroups.values().some((p) => p.project === key.name),
        }),
    });
    this.profiles = new MemoryCatalog<ProfileRecord>({
      table: "profiles",
      log,
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (p) => projectExists(p.project),
      inUse: (key) =>
        profileInUse(instancesWhere((i) => i.project === key.project && i.profiles.includes(key.name))),
    });
    this.flavors = new MemoryCatalog<FlavorRecord>({
      table: "flavors",
      log,
      keyOf: (f) => ({ name: f.name }),
    });
    this.images = new MemoryCatalog<ImageRecord>({
      table: "images",
      log,
      keyOf: (i) => ({ name: i.fingerprint }),
    });
    this.placementGroups = new MemoryCatalog<PlacementGroupRecord>({
      table: "placementGroups",
      log,
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (p) => projectExists(p.project),
      inUse: (key) =>
        placementGroupInUse(
          instancesWhere((i) => i.project === key.project && i.placementGroup === key.name),
        ),
    });
    this.resourceClasses = new MemoryCatalog<ResourceClassRecord>({
      table: "resourceClasses",
      log,
      keyOf: (r) => ({ name: r.name }),
      inUse: (key) =>
        resourceClassInUse({
          memberInventory: [...this.members.values()].some((m) => m.inventories[key.name] !== undefined),
          providerInventory: this.providers.values().find((p) => p.inventories[key.name] !== undefined)?.uuid,
          allocated: [...this.usage.values()].some((ledgers) => consumedOf(ledgers, key.name) > 0),
        }),
    });
    this.providers = new MemoryCatalog<ProviderRecord>({
      table: "providers",
      log,
      keyOf: (p) => ({ name: p.uuid }),
      validate: (p) =>
        checkProviderWrite(p, {
          heldClasses: Object.keys(this.consumers.usedOn(p.uuid)),
          nameTaken: this.providers.values().some((other) => other.name === p.name && other.uuid !== p.uuid),
          parentExists: p.parentUuid !== null && this.providers.has({ name: p.parentUuid }),
          foundTraits: this.foundTraits(p.traits),
        }),
      inUse: (key) =>
        providerInUse({
          children: this.providers.values().filter((p) => p.parentUuid === key.name).length,
          allocated: Object.keys(this.consumers.usedOn(key.name)).length > 0,
        }),
    });
    this.consumers = new MemoryConsumers(
      this.providers,
      () => new Date().toISOString(),
      {
        rows: (name) => this.instanceRowsOf(name),
        root: (name) => {
          const member = this.members.get(name);
          const shared = this.sharedRowsOf(name);
          return member === undefined || shared === undefined
            ? undefined
            : { ...shared, generation: member.generation };
        },
        setInventories: (name, inventories, generation) =>
          this.writeInventories(name, inventories, generation),
      },
      log,
      (id) => this.instances.has(id),
    );
    this.traits = new MemoryCatalog<TraitRecord>({
      table: "traits",
      log,
      keyOf: (t) => ({ name: t.name }),
      inUse: (key) =>
        traitInUse({
          provider: this.providers.values().find((p) => p.traits.includes(key.name))?.uuid,
          member: [...this.members.values()].find((m) => m.traits.includes(key.name))?.name,
        }),
    });
  }
  /** A member's inventories and instance ledgers (its rows for an instance claim), if it exists. */
  private instanceRowsOf(name: string): ProviderRows | undefined {
    const member = this.members.get(name);
    const ledgers = this.usage.get(name);
    return member === undefined || ledgers === undefined
      ? undefined
      : { inventories: member.inventories, ...ledgers };
  }

  /** A member's one ledger: its instances and reservations, and its root provider's consumers. */
  private sharedRowsOf(name: string): ProviderRows | undefined {
    const rows = this.instanceRowsOf(name);
    return rows === undefined ? undefined : sharedLedgerRows(rows, this.consumers.usedOnMember(name));
  }

  /** Writes a member's inventories at `generation`, announced to other engines. */
  private writeInventories(
    name: string,
    inventories: Record<string, InventoryRecord>,
    generation: number,
  ): void {
    const member = this.requireMember(name);
    this.writeMember(
      { ...member, inventories: cloneJson(inventories), generation },
      memberEntry(name, member.joinOrder, "updated"),
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineError("internal", "store is closed");
  }

  // --- members -------------------------------------------------------------------
  // Every rule is in rules/writes/: these read the maps, call it, and write the maps.

  private requireMember(name: string): MemberRecord {
    return requireMemberRow(name, this.members.get(name));
  }

  /** Which of `names` are stored groups. */
  private foundGroups(names: readonly string[]): Set<string> {
    return new Set(names.filter((name) => this.groups.has({ name })));
  }

  /** Which custom classes of `inventories` are stored. */
  /** Which custom traits of `traits` are stored (standard traits are built in). */
  private foundTraits(traits: readonly string[]): Set<string> {
    return new Set(customTraitsOf(traits).filter((name) => this.traits.has({ name })));
  }

  private foundClasses(inventories: Record<string, unknown>): Set<string> {
    return new Set(
      customClassesOf(Object.keys(inventories)).filter((name) => this.resourceClasses.has({ name })),
    );
  }

  /** Stores a member's new version with its feed entry (none: a heartbeat). */
  private writeMember(next: MemberRecord, entry: ChangeEntry | undefined): MemberRecord {
    this.members.set(next.name, next);
    if (entry !== undefined) this.log.push(entry);
    return cloneMember(next);
  }

  async listMembers(): Promise<MemberRecord[]> {
    this.assertOpen();
    return [...this.members.values()].map(cloneMember);
  }

  async getMember(name: string): Promise<MemberRecord | undefined> {
    this.assertOpen();
    const member = this.members.get(name);
    return member === undefined ? undefined : cloneMember(member);
  }

  async createMember(member: NewMember): Promise<MemberRecord> {
    this.assertOpen();
    const checked = checkMemberCreate(member, {
      taken: this.members.has(member.name),
      groups: this.foundGroups(member.groups),
      customClasses: this.foundClasses(member.inventories),
    });
    const record: MemberRecord = {
      ...cloneJson(checked),
      generation: 1,
      joinOrder: this.nextJoinOrder++,
      createdAt: new Date().toISOString(),
    };
    this.usage.set(member.name, { used: {}, forthcoming: {} });
    return this.writeMember(record, memberEntry(member.name, record.joinOrder, "created"));
  }

  async updateMember(
    name: string,
    patch: MemberPatch,
    expectedGeneration?: number,
    expectedFields?: MemberPatch,
  ): Promise<MemberRecord> {
    this.assertOpen();
    const member = this.requireMember(name);
    const checked = checkMemberUpdate(
      name,
      patch,
      { generation: expectedGeneration, fields: expectedFields },
      { member, groups: this.foundGroups(patch.groups ?? []) },
    );
    return this.writeMember(
      { ...member, ...cloneJson(checked.patch), generation: checked.generation },
      checked.entry,
    );
  }

  async setGroupMembers(group: string, members: readonly string[]): Promise<MemberRecord[]> {
    this.assertOpen();
    const rows = [...this.members.values()].filter(
      (m) => members.includes(m.name) || m.groups.includes(group),
    );
    const checked = checkGroupMembers(group, members, {
      groupExists: this.groups.has({ name: group }),
      members: rows,
    });
    return checked.writes.map((write, i) =>
      this.writeMember({ ...this.requireMember(write.name), groups: write.groups }, checked.entries[i]),
    );
  }

  async setInventories(
    name: string,
    inventories: Record<string, InventoryRecord>,
    expectedGeneration: number,
  ): Promise<MemberRecord> {
    this.assertOpen();
    const member = this.requireMember(name);
    const checked = checkMemberInventories(name, inventories, expectedGeneration, {
      member,
      customClasses: this.foundClasses(inventories),
      ledger: this.sharedRowsOf(name) as ProviderRows,
    });
    return this.writeMember(
      { ...member, inventories: cloneJson(inventories), generation: checked.generation },
      checked.entry,
    );
  }

  async writeMemberRoot(write: MemberRootWrite): Promise<MemberRootWritten> {
    this.assertOpen();
    const member = this.requireMember(write.member);
    const { change } = write;
    if (change.kind === "inventories") {
      const inventories = explicitInventories(change.inventories);
      requireCustomClasses(Object.keys(inventories), this.foundClasses(inventories));
    }
    if (change.kind === "traits") requireCustomTraits(change.traits, this.foundTraits(change.traits));
    const uuid = memberProviderUuid(write.member);
    const row = this.providers.peek(uuid);
    const checked = checkMemberRootWrite(write, {
      member: { ...(this.sharedRowsOf(write.member) as ProviderRows), generation: member.generation },
      row,
    });
    if (change.kind === "inventories")
      this.writeInventories(
        write.member,
        explicitInventories(change.inventories),
        checked.memberGeneration as number,
      );
    if (change.kind === "traits") {
      const next = { ...member, traits: [...change.traits], generation: checked.memberGeneration as number };
      this.writeMember(next, memberEntry(write.member, next.joinOrder, "updated"));
    }
    if (change.kind === "aggregates") {
      const now = new Date().toISOString();
      this.providers.replace({
        ...(row ?? memberRootRow(write.member, now)),
        inventories: {},
        traits: [],
        aggregates: [...change.aggregates],
        generation: checked.rowGeneration as number,
        updatedAt: now,
      });
    }
    const stored = this.providers.peek(uuid);
    return {
      member: cloneMember(this.requireMember(write.member)),
      row: stored === undefined ? undefined : cloneJson(stored),
    };
  }

  async deleteMember(name: string): Promise<void> {
    this.assertOpen();
    const { joinOrder } = this.requireMember(name);
    const instances = [...this.instances.values()];
    checkMemberDelete(name, {
      hostedInstance: instances.find((i) => i.location === name || i.secondary === name)?.name,
      allocatedInstance: instances.find((i) => i.allocations.some((a) => a.member === name))?.id,
    });
    this.members.delete(name);
    this.usage.delete(name);
    this.log.push(memberEntry(name, joinOrder, "deleted"));
  }

  // --- instances -------------------------------------------------------------------

  async getInstance(project: string, name: string): Promise<InstanceRecord | undefined> {
    this.assertOpen();
    if (name === "") return undefined;
    const id = this.instanceNames.get(`${project}/${name}`);
    const instance = id === undefined ? undefined : this.instances.get(id);
    return instance === undefined ? undefined : cloneInstance(instance);
  }

  async getInstanceById(id: string): Promise<InstanceRecord | undefined> {
    this.assertOpen();
    const instance = this.instances.get(id);
    return instance === undefined ? undefined : cloneInstance(instance);
  }

  async listInstances(filter: InstanceFilter = {}): Promise<InstanceRecord[]> {
    this.assertOpen();
    const out: InstanceRecord[] = [];
    for (const instance of this.instances.values()) {
      if (filter.project !== undefined && instance.project !== filter.project) continue;
      if (filter.location !== undefined && instance.location !== filter.location) continue;
      if (filter.secondary !== undefined && instance.secondary !== filter.secondary) continue;
      if (filter.forthcoming !== undefined && instance.forthcoming !== filter.forthcoming) continue;
      if (filter.placementGroup !== undefined && instance.placementGroup !== filter.placementGroup) continue;
      out.push(cloneInstance(instance));
    }
    return out;
  }

  /**
   * Reads the rows the claim touches from the maps, lets the claim rules
   * check them, and applies what they return: nothing is checked here.
   */
  async claim(asked: Claim): Promise<ClaimResult> {
    this.assertOpen();
    const claim = claimOfOneShape(asked);
    const checked = checkClaim(claim, this.claimRows(claim));
    for (const old of checked.removed) {
      this.instances.delete(old.id);
      if (old.name !== "") this.instanceNames.delete(nameKey(old.project, old.name));
    }
    for (const record of checked.stored) {
      // The store keeps its own copy: the caller owns the answer's objects.
      const instance = storedInstance(record, record.revision);
      this.instances.set(instance.id, instance);
      if (instance.name !== "") this.instanceNames.set(nameKey(instance.project, instance.name), instance.id);
    }
    for (const change of checked.usageChanges) {
      const ledgers = this.usage.get(change.provider)!;
      addToLedger(ledgers[change.ledger], change.resourceClass, change.amount);
    }
    this.consumers.writeInstanceConsumers(checked.instanceConsumers);
    for (const change of checked.failoverChanges) {
      let sums = this.failover.get(change.secondary);
      if (sums === undefined) this.failover.set(change.secondary, (sums = {}));
      addFailover(sums, change.primary, change.memory);
      if (Object.keys(sums).length === 0) this.failover.delete(change.secondary);
    }
    for (const { member, evacuated } of checked.memberStates) {
      const next = { ...this.members.get(member)!, evacuated };
      this.members.set(member, next);
      this.log.push({ kind: "member", name: member, joinOrder: next.joinOrder, change: "updated" });
    }
    for (const [project, change] of checked.projectChanges) {
      let totals = this.projectTotals.get(project);
      if (totals === undefined) this.projectTotals.set(project, (totals = zeroProjectTotals()));
      addProjectTotals(totals, change);
    }
    const { entry, result } = claimEntryAndResultOf(checked);
    this.log.push(entry);
    return result;
  }

  /** The claim's rows, straight from the maps (the rules only read them). */
  private claimRows(claim: Claim): ClaimRows {
    const reads = claimReads(claim);
    // Maps and sets made only for something read into them: a create reads no instance, finds
    // its id and name free and no project counters (NOTHING_READ), and each empty map was ~200
    // bytes, 800 of the ~2 KB these rows took per create (heap sampling, 2026-11-29).
    let instances: Map<string, InstanceRecord> | undefined;
    for (const id of reads.instanceIds) {
      const instance = this.instances.get(id);
      if (instance !== undefined) (instances ??= new Map()).set(id, instance);
    }
    // Instance ids and Placement consumer uuids share one namespace (rules/ledger/instance-consumers.ts).
    let takenIds: Set<string> | undefined;
    for (const id of reads.createIds)
      if (this.instances.has(id) || this.consumers.has(id)) (takenIds ??= new Set()).add(id);
    let nameHolders: Map<string, string> | undefined;
    for (const [project, name] of reads.names) {
      const key = nameKey(project, name);
      const holder = this.instanceNames.get(key);
      if (holder !== undefined) (nameHolders ??= new Map()).set(key, holder);
    }
    const projects = new Set<string>();
    for (const name of reads.projects) if (this.projects.has({ name })) projects.add(name);
    const providers = new Map<string, ProviderRows>();
    for (const name of providersToRead(claim, instances ?? NOTHING_READ.instances)) {
      const member = this.members.get(name);
      const ledgers = this.usage.get(name);
      if (member === undefined || ledgers === undefined) {
        const child = this.providers.peek(name);
        if (child !== undefined)
          providers.set(name, placementProviderRows(child, this.consumers.usedOn(name)));
        continue;
      }
      // One ledger: the member's root provider's Placement consumers count too.
      const rows = sharedLedgerRows(
        { inventories: member.inventories, used: ledgers.used, forthcoming: ledgers.forthcoming },
        this.consumers.usedOnMember(name),
      );
      const failover = this.failover.get(name);
      providers.set(name, failover === undefined ? rows : { ...rows, failover });
    }
    let projectTotals: Map<string, ProjectTotals> | undefined;
    for (const project of projectTotalsToRead(claim, instances ?? NOTHING_READ.instances)) {
      (projectTotals ??= new Map()).set(project, this.projectTotals.get(project) ?? zeroProjectTotals());
    }
    return {
      instances: instances ?? NOTHING_READ.instances,
      takenIds: takenIds ?? NOTHING_READ.takenIds,
      nameHolders: nameHolders ?? NOTHING_READ.nameHolders,
      projects,
      providers,
      projectTotals: projectTotals ?? NOTHING_READ.projectTotals,
    };
  }

  private usageRows(names: string[]): MemberUsage[] {
    return names
      .filter((name) => this.usage.has(name))
      .map((name) => {
        const ledgers = this.usage.get(name)!;
        return withConsumersUsed(
          { member: name, used: { ...ledgers.used }, forthcoming: { ...ledgers.forthcoming } },
          this.consumers.usedOnMember(name),
        );
      });
  }

  async memberUsage(names: string[]): Promise<MemberUsage[]> {
    this.assertOpen();
    return this.usageRows(names);
  }

  // --- snapshot ---------------------------------------------------------------------

  async snapshot(): Promise<StoreSnapshot> {
    this.assertOpen();
    const feedCursor = String(this.log.head);
    const counts = new Map<string, InstanceCountRow>();
    const groupCounts = new Map<string, PlacementGroupCountRow>();
    const projectUsage = new Map<string, ProjectUsageRow>();
    for (const instance of this.instances.values()) {
      const countKey = `${instance.location}\u0000${instance.project}`;
      let row = counts.get(countKey);
      if (row === undefined) {
        row = {
          member: instance.location,
          project: instance.project,
          instances: 0,
          forthcoming: 0,
          containers: 0,
          virtualMachines: 0,
        };
        counts.set(countKey, row);
      }
      row.instances += 1;
      if (instance.forthcoming) row.forthcoming += 1;
      if (instance.type === "container") row.containers += 1;
      else row.virtualMachines += 1;
      if (instance.placementGroup !== null) {
        const groupKey = `${instance.project}\u0000${instance.placementGroup}\u0000${instance.location}`;
        const groupRow = groupCounts.get(groupKey) ?? {
          project: instance.project,
          group: instance.placementGroup,
          member: instance.location,
          instances: 0,
        };
        groupRow.instances += 1;
        groupCounts.set(groupKey, groupRow);
      }
      let usage = projectUsage.get(instance.project);
      if (usage === undefined) {
        usage = { project: instance.project, ...zeroProjectTotals() };
        projectUsage.set(instance.project, usage);
      }
      countInProject(usage, instance, 1);
    }
    // Every read happens now, in this turn: nothing can be written between them and the cursor.
    const config = cloneJson(this.config);
    const usage = this.usageRows([...this.members.keys()]);
    const consumerUsage = this.consumers.usageRows();
    const [members, groups, projects, placementGroups, resourceClasses] = await Promise.all([
      this.listMembers(),
      this.groups.list(),
      this.projects.list(),
      this.placementGroups.list(),
      this.resourceClasses.list(),
    ]);
    return {
      members,
      groups,
      projects,
      placementGroups,
      resourceClasses,
      config,
      usage,
      consumerUsage,
      instanceCounts: [...counts.values()],
      placementGroupCounts: [...groupCounts.values()],
      projectUsage: [...projectUsage.values()],
      feedCursor,
    };
  }

  // --- config ------------------------------------------------------------------------

  async getConfig(): Promise<ConfigRecord> {
    this.assertOpen();
    return cloneJson(this.config);
  }

  async getConfigVersion(): Promise<number> {
    this.assertOpen();
    return this.config.version;
  }

  async setConfig(patch: Record<string, string | null>, expectedVersion?: number): Promise<ConfigRecord> {
    this.assertOpen();
    if (expectedVersion !== undefined && expectedVersion !== this.config.version) {
      throw conflict(
        `Server configuration changed concurrently (version ${this.config.version}, expected ${expectedVersion})`,
      );
    }
    const values = { ...this.config.values };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete values[key];
      else values[key] = value;
    }
    this.config = { version: this.config.version + 1, values };
    this.log.push({ kind: "config" });
    return cloneJson(this.config);
  }

  private readonly leases = new Map<string, { holder: string; expiresMs: number }>();

  /** Leases between engines sharing this store (see Store.acquireLease); time is this process's clock. */
  async acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    const now = Date.now();
    const lease = this.leases.get(name);
    if (lease !== undefined && lease.holder !== holder && lease.expiresMs >= now) return false;
    this.leases.set(name, { holder, expiresMs: now + ttlMs });
    return true;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    if (this.leases.get(name)?.holder === holder) this.leases.delete(name);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A new, empty `MemoryStore` (the async factory the contract suite takes). */
export async function createMemoryStore(): Promise<MemoryStore> {
  return new MemoryStore();
}
