/**
 * A complete in-memory Store: useful for embedding, tests and simulations.
 *
 * Atomicity comes from JavaScript's run-to-completion: `claim` validates and
 * applies synchronously between two awaits, so no other claim can interleave.
 * Usage per member is kept incrementally so a claim costs O(rows it touches).
 */
import { conflict, EngineError, notFound } from "../errors.js";
import { capacityOf } from "./capacity.js";
import {
  capacityFailure,
  claimFailure,
  constraintsFailure,
  meetsUnitConstraints,
  noInventoryFailure,
} from "./claim-failures.js";
import { cloneInstance, cloneJson, cloneMember, storedInstance } from "./clone.js";
import { MemoryCatalog } from "./memory-catalog.js";
import type {
  CatalogTable,
  Claim,
  ClaimResult,
  InstanceCountRow,
  InstanceFilter,
  MemberPatch,
  MemberUsage,
  NewInstance,
  NewMember,
  PlacementGroupCountRow,
  ProjectLimits,
  ProjectUsageRow,
  Store,
  StoreSnapshot,
} from "./port.js";
import type {
  AllocationRow,
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
  ResourceClassRecord,
} from "./records.js";

interface Ledgers {
  used: Map<string, number>;
  forthcoming: Map<string, number>;
}

type ProjectDimension = keyof ProjectLimits;
const PROJECT_DIMENSIONS: ProjectDimension[] = [
  "instances",
  "containers",
  "virtualMachines",
  "cpu",
  "memoryBytes",
  "diskBytes",
];

function projectContribution(instance: NewInstance): Record<ProjectDimension, number> {
  return {
    instances: 1,
    containers: instance.type === "container" ? 1 : 0,
    virtualMachines: instance.type === "virtual-machine" ? 1 : 0,
    cpu: instance.limitsUsage.cpu,
    memoryBytes: instance.limitsUsage.memoryBytes,
    diskBytes: instance.limitsUsage.diskBytes,
  };
}

function ledgerObject(map: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [resourceClass, amount] of map) if (amount !== 0) out[resourceClass] = amount;
  return out;
}

export class MemoryStore implements Store {
  private readonly members = new Map<string, MemberRecord>();
  private readonly usage = new Map<string, Ledgers>();
  private readonly instances = new Map<string, InstanceRecord>();
  private readonly instanceNames = new Map<string, string>();
  private readonly projectTotals = new Map<string, Record<ProjectDimension, number>>();
  private config: ConfigRecord = { version: 0, values: {} };
  private nextJoinOrder = 1;
  private closed = false;
  /** See Store.changeVersion. */
  private changes = 0;

  readonly groups: MemoryCatalog<GroupRecord>;
  readonly projects: MemoryCatalog<ProjectRecord>;
  readonly profiles: MemoryCatalog<ProfileRecord>;
  readonly flavors: CatalogTable<FlavorRecord>;
  readonly images: CatalogTable<ImageRecord>;
  readonly placementGroups: MemoryCatalog<PlacementGroupRecord>;
  readonly resourceClasses: MemoryCatalog<ResourceClassRecord>;

  constructor() {
    const changed = () => {
      this.changes += 1;
    };
    const instancesWhere = (predicate: (i: InstanceRecord) => boolean) => {
      let count = 0;
      for (const instance of this.instances.values()) if (predicate(instance)) count += 1;
      return count;
    };
    const requireProject = (project: string) => {
      if (!this.projects.has({ name: project })) throw notFound(`Project "${project}" not found`);
    };
    this.groups = new MemoryCatalog<GroupRecord>({
      changed,
      label: "Cluster group",
      keyOf: (g) => ({ name: g.name }),
      inUse: (key) => {
        const users = [...this.members.values()].filter((m) => m.groups.includes(key.name)).length;
        return users > 0 ? `${users} member(s) belong to it` : undefined;
      },
    });
    this.projects = new MemoryCatalog<ProjectRecord>({
      changed,
      label: "Project",
      keyOf: (p) => ({ name: p.name }),
      inUse: (key) => {
        const instances = instancesWhere((i) => i.project === key.name);
        if (instances > 0) return `${instances} instance(s)`;
        if (this.profiles.values().some((p) => p.project === key.name)) return "it has profiles";
        if (this.placementGroups.values().some((p) => p.project === key.name))
          return "it has placement groups";
        return undefined;
      },
    });
    this.profiles = new MemoryCatalog<ProfileRecord>({
      changed,
      label: "Profile",
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (p) => requireProject(p.project),
      inUse: (key) => {
        const users = instancesWhere((i) => i.project === key.project && i.profiles.includes(key.name));
        return users > 0 ? `used by ${users} instance(s)` : undefined;
      },
    });
    this.flavors = new MemoryCatalog<FlavorRecord>({
      changed,
      label: "Flavor",
      keyOf: (f) => ({ name: f.name }),
    });
    this.images = new MemoryCatalog<ImageRecord>({
      changed,
      label: "Image",
      keyOf: (i) => ({ name: i.fingerprint }),
    });
    this.placementGroups = new MemoryCatalog<PlacementGroupRecord>({
      changed,
      label: "Placement group",
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (p) => requireProject(p.project),
      inUse: (key) => {
        const users = instancesWhere((i) => i.project === key.project && i.placementGroup === key.name);
        return users > 0 ? `${users} instance(s) belong to it` : undefined;
      },
    });
    this.resourceClasses = new MemoryCatalog<ResourceClassRecord>({
      changed,
      label: "Resource class",
      keyOf: (r) => ({ name: r.name }),
      inUse: (key) => {
        for (const member of this.members.values()) {
          if (member.inventories[key.name] !== undefined)
            return `member "${member.name}" has an inventory of it`;
        }
        for (const ledgers of this.usage.values()) {
          if ((ledgers.used.get(key.name) ?? 0) + (ledgers.forthcoming.get(key.name) ?? 0) > 0) {
            return "instances have allocations of it";
          }
        }
        return undefined;
      },
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineError("internal", "store is closed");
  }

  // --- members -------------------------------------------------------------------

  private requireMember(name: string): MemberRecord {
    const member = this.members.get(name);
    if (member === undefined) throw notFound(`Cluster member "${name}" not found`);
    return member;
  }

  private checkGroups(groups: string[]): void {
    for (const group of groups) {
      if (!this.groups.has({ name: group })) throw notFound(`Cluster group "${group}" not found`);
    }
  }

  private checkClasses(inventories: Record<string, InventoryRecord>): void {
    for (const resourceClass of Object.keys(inventories)) {
      if (resourceClass.startsWith("CUSTOM_") && !this.resourceClasses.has({ name: resourceClass })) {
        throw notFound(`Resource class "${resourceClass}" not found`);
      }
    }
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
    if (this.members.has(member.name)) throw conflict(`Cluster member "${member.name}" already exists`);
    this.checkGroups(member.groups);
    this.checkClasses(member.inventories);
    const record: MemberRecord = {
      ...cloneJson(member),
      generation: 1,
      joinOrder: this.nextJoinOrder++,
      createdAt: new Date().toISOString(),
    };
    this.members.set(member.name, record);
    this.usage.set(member.name, { used: new Map(), forthcoming: new Map() });
    this.changes += 1;
    return cloneMember(record);
  }

  async updateMember(name: string, patch: MemberPatch, expectedGeneration?: number): Promise<MemberRecord> {
    this.assertOpen();
    const member = this.requireMember(name);
    if (expectedGeneration !== undefined && expectedGeneration !== member.generation) {
      throw conflict(
        `Cluster member "${name}" generation conflict: expected ${expectedGeneration}, current ${member.generation}`,
      );
    }
    if (patch.groups !== undefined) this.checkGroups(patch.groups);
    const next: MemberRecord = { ...member, ...cloneJson(patch) };
    if (patch.traits !== undefined) next.generation = member.generation + 1;
    this.members.set(name, next);
    if (Object.keys(patch).some((field) => field !== "lastHeartbeat" && field !== "state")) this.changes += 1;
    return cloneMember(next);
  }

  async setInventories(
    name: string,
    inventories: Record<string, InventoryRecord>,
    expectedGeneration: number,
  ): Promise<MemberRecord> {
    this.assertOpen();
    const member = this.requireMember(name);
    if (expectedGeneration !== member.generation) {
      throw conflict(
        `Cluster member "${name}" generation conflict: expected ${expectedGeneration}, current ${member.generation}`,
      );
    }
    this.checkClasses(inventories);
    const ledgers = this.usage.get(name)!;
    for (const resourceClass of Object.keys(member.inventories)) {
      if (inventories[resourceClass] !== undefined) continue;
      const inUse = (ledgers.used.get(resourceClass) ?? 0) + (ledgers.forthcoming.get(resourceClass) ?? 0);
      if (inUse > 0) {
        throw conflict(
          `Cannot remove inventory of ${resourceClass} from cluster member "${name}": ${inUse} allocated`,
        );
      }
    }
    const next: MemberRecord = {
      ...member,
      inventories: cloneJson(inventories),
      generation: member.generation + 1,
    };
    this.members.set(name, next);
    this.changes += 1;
    return cloneMember(next);
  }

  async deleteMember(name: string): Promise<void> {
    this.assertOpen();
    this.requireMember(name);
    for (const instance of this.instances.values()) {
      if (instance.location === name) {
        throw conflict(`Cluster member "${name}" still hosts instances (e.g. "${instance.name}")`);
      }
    }
    this.members.delete(name);
    this.usage.delete(name);
    this.changes += 1;
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
      if (filter.forthcoming !== undefined && instance.forthcoming !== filter.forthcoming) continue;
      if (filter.placementGroup !== undefined && instance.placementGroup !== filter.placementGroup) continue;
      out.push(cloneInstance(instance));
    }
    return out;
  }

  async claim(claim: Claim): Promise<ClaimResult> {
    this.assertOpen();
    const removed: InstanceRecord[] = [];
    const added: NewInstance[] = [];
    const oldById = new Map<string, InstanceRecord>();
    const existingProjects = new Set<string>();

    for (const { id, expectedRevision } of claim.remove ?? []) {
      const current = this.instances.get(id);
      if (current === undefined) {
        throw claimFailure("conflict", `Instance "${id}" no longer exists`, {
          reason: "instance_missing",
          id,
        });
      }
      this.checkRevision(current, expectedRevision);
      removed.push(current);
    }
    for (const { record, expectedRevision } of claim.replace ?? []) {
      const current = this.instances.get(record.id);
      if (current === undefined) {
        throw claimFailure("conflict", `Instance "${record.id}" no longer exists`, {
          reason: "instance_missing",
          id: record.id,
        });
      }
      this.checkRevision(current, expectedRevision);
      removed.push(current);
      oldById.set(current.id, current);
      added.push(record);
    }
    const goneIds = new Set(removed.map((r) => r.id));
    const addedIds = new Set(added.map((a) => a.id));
    for (const record of claim.create ?? []) {
      if (this.instances.has(record.id) || addedIds.has(record.id)) {
        throw claimFailure("conflict", `Instance id "${record.id}" already exists`, {
          reason: "id_taken",
          id: record.id,
        });
      }
      addedIds.add(record.id);
      added.push(record);
    }
    for (const record of added) {
      if (existingProjects.has(record.project)) continue;
      if (!this.projects.has({ name: record.project }))
        throw notFound(`Project "${record.project}" not found`);
      existingProjects.add(record.project);
    }
    this.checkNames(added, goneIds);
    const touched = this.checkCapacity(removed, added, oldById);
    this.checkProjectLimits(removed, added, claim.projectLimits ?? {});

    // Everything checked: apply.
    for (const old of removed) {
      this.unapply(old);
      this.instances.delete(old.id);
      if (old.name !== "") this.instanceNames.delete(`${old.project}/${old.name}`);
    }
    const stored: InstanceRecord[] = [];
    for (const record of added) {
      const revision = (oldById.get(record.id)?.revision ?? 0) + 1;
      const instance = storedInstance(record, revision);
      this.instances.set(instance.id, instance);
      if (instance.name !== "") this.instanceNames.set(`${instance.project}/${instance.name}`, instance.id);
      this.apply(instance);
      stored.push(storedInstance(instance, revision));
    }
    return { instances: stored, usage: this.usageRows([...touched].sort()) };
  }

  private checkRevision(current: InstanceRecord, expected: number | undefined): void {
    if (expected !== undefined && expected !== current.revision) {
      throw claimFailure(
        "conflict",
        `Instance "${current.name}" was changed concurrently (revision ${current.revision}, expected ${expected})`,
        { reason: "revision", id: current.id, expected, actual: current.revision },
      );
    }
  }

  private checkNames(added: NewInstance[], goneIds: Set<string>): void {
    const claimed = new Set<string>();
    for (const record of added) {
      // Unnamed reservations (name "") are addressed by id and never clash.
      if (record.name === "") continue;
      const key = `${record.project}/${record.name}`;
      const holder = this.instanceNames.get(key);
      const takenByOther = holder !== undefined && !goneIds.has(holder);
      if (takenByOther || claimed.has(key)) {
        throw claimFailure(
          "conflict",
          `Instance "${record.name}" already exists in project "${record.project}"`,
          {
            reason: "name_taken",
            project: record.project,
            name: record.name,
          },
        );
      }
      claimed.add(key);
    }
  }

  /** Validates every grown allocation and returns the members the claim touches. */
  private checkCapacity(
    removed: InstanceRecord[],
    added: NewInstance[],
    oldById: Map<string, InstanceRecord>,
  ): Set<string> {
    const delta = new Map<string, Map<string, number>>();
    const touched = new Set<string>();
    const add = (row: AllocationRow, sign: number) => {
      touched.add(row.member);
      let perClass = delta.get(row.member);
      if (perClass === undefined) delta.set(row.member, (perClass = new Map()));
      perClass.set(row.resourceClass, (perClass.get(row.resourceClass) ?? 0) + sign * row.amount);
    };
    for (const old of removed) for (const row of old.allocations) add(row, -1);
    for (const record of added) {
      touched.add(record.location);
      if (!this.members.has(record.location)) {
        throw claimFailure("conflict", `Cluster member "${record.location}" no longer exists`, {
          reason: "member_missing",
          member: record.location,
        });
      }
      const old = oldById.get(record.id);
      for (const row of record.allocations) {
        if (row.amount === 0) continue;
        add(row, 1);
        const member = this.members.get(row.member);
        if (member === undefined) {
          throw claimFailure("conflict", `Cluster member "${row.member}" no longer exists`, {
            reason: "member_missing",
            member: row.member,
          });
        }
        const before = old?.allocations
          .filter((o) => o.member === row.member && o.resourceClass === row.resourceClass)
          .reduce((sum, o) => sum + o.amount, 0);
        if (before !== undefined && row.amount <= before) continue;
        const inventory = member.inventories[row.resourceClass];
        if (inventory === undefined) throw noInventoryFailure(row.member, row.resourceClass);
        if (!meetsUnitConstraints(row.amount, inventory)) throw constraintsFailure(row, inventory);
      }
    }
    for (const [memberName, perClass] of delta) {
      const ledgers = this.usage.get(memberName);
      const member = this.members.get(memberName);
      if (ledgers === undefined || member === undefined) continue; // only removals reach here
      for (const [resourceClass, change] of perClass) {
        if (change <= 0) continue;
        const inventory = member.inventories[resourceClass];
        if (inventory === undefined) throw noInventoryFailure(memberName, resourceClass);
        const used = (ledgers.used.get(resourceClass) ?? 0) + (ledgers.forthcoming.get(resourceClass) ?? 0);
        const capacity = capacityOf(inventory);
        if (used + change > capacity)
          throw capacityFailure(memberName, resourceClass, change, used, capacity);
      }
    }
    return touched;
  }

  private checkProjectLimits(
    removed: InstanceRecord[],
    added: NewInstance[],
    limits: Record<string, ProjectLimits>,
  ): void {
    const projects = Object.keys(limits);
    if (projects.length === 0) return;
    for (const project of projects) {
      const projectLimits = limits[project]!;
      const change: Record<ProjectDimension, number> = {
        instances: 0,
        containers: 0,
        virtualMachines: 0,
        cpu: 0,
        memoryBytes: 0,
        diskBytes: 0,
      };
      for (const [list, sign] of [
        [removed, -1],
        [added, 1],
      ] as const) {
        for (const record of list) {
          if (record.project !== project) continue;
          const contribution = projectContribution(record);
          for (const dimension of PROJECT_DIMENSIONS) change[dimension] += sign * contribution[dimension];
        }
      }
      const current = this.projectUsage(project);
      for (const dimension of PROJECT_DIMENSIONS) {
        const max = projectLimits[dimension];
        if (max === undefined || change[dimension] <= 0) continue;
        const value = current[dimension] + change[dimension];
        if (value > max) {
          throw claimFailure(
            "insufficient_capacity",
            `Project "${project}" limit ${dimension} would be exceeded (${value} > ${max})`,
            { reason: "project_limit", project, limit: dimension, value, max },
          );
        }
      }
    }
  }

  /** Kept incrementally so project limit checks cost nothing per existing instance. */
  private projectUsage(project: string): Record<ProjectDimension, number> {
    return (
      this.projectTotals.get(project) ?? {
        instances: 0,
        containers: 0,
        virtualMachines: 0,
        cpu: 0,
        memoryBytes: 0,
        diskBytes: 0,
      }
    );
  }

  private apply(instance: InstanceRecord, sign = 1): void {
    let totals = this.projectTotals.get(instance.project);
    if (totals === undefined) {
      totals = { ...this.projectUsage(instance.project) };
      this.projectTotals.set(instance.project, totals);
    }
    // In place: the totals object is the store's own (projectUsage readers only read it).
    totals.instances += sign;
    if (instance.type === "container") totals.containers += sign;
    else totals.virtualMachines += sign;
    totals.cpu += sign * instance.limitsUsage.cpu;
    totals.memoryBytes += sign * instance.limitsUsage.memoryBytes;
    totals.diskBytes += sign * instance.limitsUsage.diskBytes;
    for (const row of instance.allocations) {
      const ledgers = this.usage.get(row.member);
      if (ledgers === undefined) continue;
      const ledger = ledgers[row.ledger];
      ledger.set(row.resourceClass, (ledger.get(row.resourceClass) ?? 0) + sign * row.amount);
    }
  }

  private unapply(instance: InstanceRecord): void {
    this.apply(instance, -1);
  }

  private usageRows(names: string[]): MemberUsage[] {
    return names
      .filter((name) => this.usage.has(name))
      .map((name) => {
        const ledgers = this.usage.get(name)!;
        return {
          member: name,
          used: ledgerObject(ledgers.used),
          forthcoming: ledgerObject(ledgers.forthcoming),
        };
      });
  }

  async memberUsage(names: string[]): Promise<MemberUsage[]> {
    this.assertOpen();
    return this.usageRows(names);
  }

  // --- snapshot ---------------------------------------------------------------------

  async snapshot(): Promise<StoreSnapshot> {
    this.assertOpen();
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
        usage = {
          project: instance.project,
          instances: 0,
          containers: 0,
          virtualMachines: 0,
          cpu: 0,
          memoryBytes: 0,
          diskBytes: 0,
        };
        projectUsage.set(instance.project, usage);
      }
      const contribution = projectContribution(instance);
      for (const dimension of PROJECT_DIMENSIONS) usage[dimension] += contribution[dimension];
    }
    return {
      members: await this.listMembers(),
      groups: await this.groups.list(),
      projects: await this.projects.list(),
      placementGroups: await this.placementGroups.list(),
      resourceClasses: await this.resourceClasses.list(),
      config: cloneJson(this.config),
      usage: this.usageRows([...this.members.keys()]),
      instanceCounts: [...counts.values()],
      placementGroupCounts: [...groupCounts.values()],
      projectUsage: [...projectUsage.values()],
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
    this.changes += 1;
    return cloneJson(this.config);
  }

  async changeVersion(): Promise<number> {
    this.assertOpen();
    return this.changes;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export async function createMemoryStore(): Promise<MemoryStore> {
  return new MemoryStore();
}
