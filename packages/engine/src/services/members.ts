/**
 * Members: registration, edits, heartbeats, reported state and resources,
 * and inventories. Standard inventories (VCPU, MEMORY_MB, DISK_GB) are
 * derived from what a member reports with the cluster's default allocation
 * ratios; explicit inventories always win; custom classes exist only where
 * set explicitly.
 */

import {
  deriveMemberInventories,
  type Inventory,
  type InventoryInput,
  inventoryCapacity,
  isWellFormedResourceClass,
  normalizeInventory,
  reportedCapacity,
  rootDiskPools,
} from "@berth/resources";
import { EngineError, invalid, notFound } from "../base/errors.js";
import { isMemberRoot, memberProviderUuid } from "../rules/ledger/shared-ledger.js";
import { requireMemberRow } from "../rules/writes/member-generation.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { cloneMember } from "../store/clone.js";
import type { MemberPatch, NewMember } from "../store/port.js";
import type { InventoryRecord, MemberRecord } from "../store/records.js";
import { type MemberStatus, memberStatus } from "../views/views.js";
import { mergeConfig } from "./catalog-patches.js";
import { withDefaultGroup } from "./default-group.js";
import { guardedUpdate } from "./guarded-update.js";

/**
 * A member to create: its identity, what it reports, and inventories set explicitly (else derived
 * from its resources).
 */
export interface MemberInput {
  /** Unique member name. */
  name: string;
  /** Its LXD API address. */
  url?: string;
  /** Defaults to what the member's resources report (`cpu.architecture`), else x86_64. */
  architecture?: string;
  /** Free text. */
  description?: string;
  /** LXD's failure domain. */
  failureDomain?: string;
  /** LXD cluster roles. */
  roles?: string[];
  /** Cluster groups it joins (each must exist); every member is in `default` too. */
  groups?: string[];
  /** Member config (`scheduler.instance`, `user.*`). */
  config?: Record<string, string>;
  /** Placement traits it has. */
  traits?: string[];
  /** Its hardware report (LXD `api.Resources`): standard inventories are derived from it. */
  resources?: Record<string, unknown> | null;
  /** Its state report (LXD `ClusterMemberState`). */
  state?: Record<string, unknown> | null;
  /** Explicit inventories (Placement fields, snake_case). */
  inventories?: Record<string, InventoryInput>;
}

/** A member's editable fields (PUT replaces them all, PATCH only those given). */
export type MemberUpdate = Partial<
  Pick<
    MemberInput,
    "url" | "description" | "failureDomain" | "roles" | "groups" | "config" | "traits" | "architecture"
  >
>;

/** A member as the model sees it now: its record, its status and what it holds. */
export interface MemberInfo {
  /** The stored record. */
  record: MemberRecord;
  /** Online, offline or evacuated, from its heartbeat and state. */
  status: MemberStatus;
  /** Usage per class: real instances, reservations, in-flight placements. */
  usage: {
    /** Resource class -> what its instances hold (classes at zero left out). */
    used: Record<string, number>;
    /** Resource class -> what reservations (Ganeti forthcoming instances) on it hold (zeros left out). */
    forthcoming: Record<string, number>;
    /** Resource class -> what placements decided but not yet committed hold (zeros left out). */
    pending: Record<string, number>;
  };
  /** Instances on the member (reservations included). */
  instances: number;
}

/** A member's inventory of one class, with what is used of it. */
export interface InventoryView extends InventoryRecord {
  /** What the used ledger holds of the class on the member (instances, Placement consumers). */
  used: number;
  /** What reservations hold of the class on the member. */
  forthcoming: number;
  /** Placement's `(total - reserved) * allocation_ratio` (@berth/resources' `inventoryCapacity`). */
  capacity: number;
}

const MEMBER_NAME = /^(?=.{1,63}$)[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const TRAIT_NAME = /^[A-Z0-9_]{1,255}$/;
const SCHEDULER_MODES = ["all", "group", "manual"];

/** An inventory value with where it came from (the record copies it: records are stored as given). */
function toRecord(inventory: Inventory, source: InventoryRecord["source"]): InventoryRecord {
  return { ...inventory, source };
}

/** The value of a record (without `source`), to derive from again. */
function inventoryValue({ source: _source, ...inventory }: InventoryRecord): Inventory {
  return inventory;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : undefined;
}

function nonZero(map: ReadonlyMap<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [resourceClass, amount] of map) if (amount !== 0) out[resourceClass] = amount;
  return out;
}

/** The fields of `member` an edit names (each edit of a merge writes, and is conditional on, exactly those). */
function editedFields(member: MemberRecord, changes: MemberUpdate): MemberUpdate {
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(changes) as (keyof MemberUpdate)[])
    if (changes[field] !== undefined) out[field] = member[field];
  return out as MemberUpdate;
}

function validateConfig(config: Record<string, string>): void {
  const mode = config["scheduler.instance"];
  if (mode !== undefined && !SCHEDULER_MODES.includes(mode)) {
    throw invalid(`Invalid member config "scheduler.instance": "${mode}" (expected all, group or manual)`);
  }
}

function validateTraits(traits: string[]): void {
  for (const trait of traits) {
    if (!TRAIT_NAME.test(trait)) throw invalid(`Invalid trait name "${trait}"`);
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

export class Members {
  /** The profiles' root disk pools and the catalog epoch they were read at (`rootPools`). */
  private rootPoolsRead: { epoch: number | undefined; pools: readonly string[] } | undefined;

  constructor(
    private readonly runtime: EngineRuntime,
    /**
     * Makes a trait exist in Placement's traits catalog (services/placement/providers.ts
     * `ensureTrait`): standard names exist already, a missing `CUSTOM_` one is created,
     * any other name is refused with Placement's text.
     */
    private readonly ensureTrait: (name: string) => Promise<unknown>,
  ) {}

  /**
   * A member's traits are its root resource provider's traits, so they exist
   * in the traits catalog as every provider's must (Placement refuses others:
   * "No such trait(s)"), and a Placement client's `required=CUSTOM_X` finds the
   * member. A `CUSTOM_` trait not there yet is created, as Nova's report client
   * creates the custom traits a compute host reports before setting them; a name
   * that is neither standard nor `CUSTOM_` is refused. Checked before the member
   * is written (a trait deleted in between is the one race left: the store then
   * refuses the delete only once the member holds it).
   */
  private async ensureTraits(traits: readonly string[] | undefined): Promise<void> {
    for (const name of new Set(traits ?? [])) await this.ensureTrait(name);
  }

  /**
   * The storage pools instances' root disks use, as the profiles of every
   * project name them (@berth/resources' `rootDiskPools`): DISK_GB is
   * derived from these pools' reported sizes. Read from the store, and
   * again only once the catalog moved (`catalogEpoch`; a store without a
   * change feed is read every time).
   */
  async rootPools(): Promise<readonly string[]> {
    const epoch = this.runtime.catalogEpoch();
    const read = this.rootPoolsRead;
    if (read !== undefined && epoch !== undefined && read.epoch === epoch) return read.pools;
    const pools = rootDiskPools(await this.runtime.store.profiles.list());
    this.rootPoolsRead = { epoch, pools };
    return pools;
  }

  /**
   * A profile was written or removed: when that changed the pools root
   * disks use, every member's DISK_GB is derived again (and stored, so
   * other servers sharing the store see it). Engines sharing the store
   * re-read the pools when the change reaches them (`rootPools`).
   */
  async profilesChanged(): Promise<void> {
    const before = this.rootPoolsRead?.pools;
    this.rootPoolsRead = undefined;
    const pools = await this.rootPools();
    if (before !== undefined && sameNames(before, pools)) return;
    try {
      await this.rederiveAll();
    } catch (error) {
      // The profile is written; a member that changed meanwhile (a lost generation race) is
      // derived again with its next report, so the profile write is not answered as failed.
      this.runtime.logger.log("warn", "Re-deriving DISK_GB after a profile change failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private state(name: string) {
    const member = this.runtime.model.member(name);
    if (member === undefined) throw notFound(`Cluster member "${name}" not found`);
    return member;
  }

  info(name: string): MemberInfo {
    const member = this.state(name);
    const { nowMs, offlineThresholdMs } = this.runtime.timing();
    return {
      record: cloneMember(member.record),
      status: memberStatus(member, nowMs, offlineThresholdMs),
      usage: {
        used: nonZero(member.used),
        forthcoming: nonZero(member.forthcoming),
        pending: nonZero(member.pending),
      },
      instances: member.instanceCount,
    };
  }

  list(): MemberInfo[] {
    return this.runtime.model.allMembers().map((member) => this.info(member.name));
  }

  /**
   * Explicit inventories kept, standard ones re-derived from whatever the
   * member reported (resources document, else state), the pools root
   * disks use (`rootPools`) and current ratios.
   */
  effectiveInventories(
    current: Record<string, InventoryRecord>,
    resources: Record<string, unknown> | null,
    state: Record<string, unknown> | null,
    rootPools: readonly string[],
  ): Record<string, InventoryRecord> {
    const explicit: Record<string, Inventory> = {};
    const lastDerived: Record<string, Inventory> = {};
    for (const [resourceClass, inventory] of Object.entries(current)) {
      if (inventory.source === "explicit") explicit[resourceClass] = inventoryValue(inventory);
      else lastDerived[resourceClass] = inventoryValue(inventory);
    }
    const derived = deriveMemberInventories(
      reportedCapacity(resources, state, rootPools),
      explicit,
      { allocation_ratios: this.runtime.effective.allocationRatios },
      lastDerived,
    );
    if (!derived.ok) throw invalid(derived.error.message);
    const out: Record<string, InventoryRecord> = {};
    for (const [resourceClass, inventory] of Object.entries(derived.value)) {
      out[resourceClass] = toRecord(inventory, resourceClass in explicit ? "explicit" : "derived");
    }
    return out;
  }

  async create(input: MemberInput): Promise<MemberInfo> {
    const runtime = this.runtime;
    await runtime.sync();
    if (!MEMBER_NAME.test(input.name)) {
      throw invalid(
        `Invalid member name "${input.name}": 1-63 letters, digits, dots, underscores and hyphens, starting and ending with a letter or digit`,
      );
    }
    const config = mergeConfig({}, input.config);
    validateConfig(config);
    validateTraits(input.traits ?? []);
    await this.ensureTraits(input.traits);
    const explicit: Record<string, InventoryRecord> = {};
    for (const [resourceClass, inventory] of Object.entries(input.inventories ?? {})) {
      if (!isWellFormedResourceClass(resourceClass))
        throw invalid(`Invalid resource class "${resourceClass}"`);
      const normalized = normalizeInventory(resourceClass, inventory);
      if (!normalized.ok) throw invalid(normalized.error.message);
      explicit[resourceClass] = toRecord(normalized.value, "explicit");
    }
    const resources = input.resources ?? null;
    const state = input.state ?? null;
    const reportedArch = objectAt(resources, "cpu")?.architecture;
    const member: NewMember = {
      name: input.name,
      url: input.url ?? "",
      architecture:
        input.architecture ??
        (typeof reportedArch === "string" && reportedArch !== "" ? reportedArch : "x86_64"),
      description: input.description ?? "",
      failureDomain: input.failureDomain ?? "default",
      roles: input.roles ?? [],
      groups: withDefaultGroup(input.groups ?? []),
      config,
      traits: input.traits ?? [],
      evacuated: false,
      // Joining counts as a heartbeat: a new member is online until it stops reporting.
      lastHeartbeat: runtime.clock.now().toISOString(),
      state,
      resources,
      inventories: this.effectiveInventories(explicit, resources, state, await this.rootPools()),
    };
    // The member is a root resource provider by its name: no other provider may have it.
    const providers = await runtime.providerModel.providers(runtime.store);
    if (providers.some((p) => p.name === input.name && !isMemberRoot(p.uuid, p.name)))
      throw new EngineError(
        "conflict",
        `Cluster member name "${input.name}" is taken by a Placement resource provider`,
      );
    const record = await runtime.store.createMember(member);
    runtime.model.upsertMember(record);
    runtime.model.setUsage(await runtime.store.memberUsage([record.name]));
    return this.info(record.name);
  }

  /**
   * Removes the stored row of the member's root provider, if a Placement
   * client made one: the store refuses while consumers hold allocations on
   * it or it has child providers, and so the member stays.
   */
  private async releaseRoot(name: string): Promise<void> {
    const uuid = memberProviderUuid(name);
    if ((await this.runtime.store.providers.get({ name: uuid })) === undefined) return;
    try {
      await this.runtime.store.providers.delete({ name: uuid });
    } catch (error) {
      if (!(error instanceof EngineError) || error.kind !== "conflict") throw error;
      throw new EngineError(
        "conflict",
        `Cluster member "${name}" can't be removed while its resource provider ${uuid} has Placement allocations or child providers`,
      );
    }
  }

  /** The store's patch for an edit, checked (config, traits) and keeping the default group. */
  private patchOf(update: MemberUpdate): MemberPatch {
    // LXD: a key set to "" is unset (`lxc cluster unset` PUTs the config with the key "").
    const config = update.config === undefined ? undefined : mergeConfig({}, update.config);
    if (config !== undefined) validateConfig(config);
    if (update.traits !== undefined) validateTraits(update.traits);
    const patch: MemberPatch = {};
    if (update.url !== undefined) patch.url = update.url;
    if (update.description !== undefined) patch.description = update.description;
    if (update.failureDomain !== undefined) patch.failureDomain = update.failureDomain;
    if (update.roles !== undefined) patch.roles = update.roles;
    if (update.groups !== undefined) patch.groups = withDefaultGroup(update.groups);
    if (config !== undefined) patch.config = config;
    if (update.traits !== undefined) patch.traits = update.traits;
    if (update.architecture !== undefined) patch.architecture = update.architecture;
    return patch;
  }

  async update(name: string, update: MemberUpdate, expectedGeneration?: number): Promise<MemberInfo> {
    await this.runtime.ensureMember(name);
    const patch = this.patchOf(update);
    await this.ensureTraits(patch.traits);
    const record = await this.runtime.store.updateMember(name, patch, expectedGeneration);
    this.runtime.model.upsertMember(record);
    return this.info(name);
  }

  /**
   * LXD's PATCH: the given fields replace the member's, except `config`,
   * merged key by key into the stored one (`""` unsets a key). The merge is written only over
   * the version it was made from (the store's conditional update); a lost
   * race merges again into the new version (guarded-update.ts).
   */
  async patch(name: string, changes: MemberUpdate): Promise<MemberInfo> {
    await this.runtime.ensureMember(name);
    if (changes.traits !== undefined) {
      validateTraits(changes.traits);
      await this.ensureTraits(changes.traits);
    }
    const store = this.runtime.store;
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const record = await guardedUpdate<MemberRecord>(
      {
        label: `Cluster member "${name}"`,
        read: async () => requireMemberRow(name, await store.getMember(name)),
        write: (next, expected) => {
          const patch = this.patchOf(editedFields(next, changes));
          return store.updateMember(name, patch, undefined, editedFields(expected, changes));
        },
      },
      (current) => ({
        ...current,
        ...given,
        ...(changes.config !== undefined ? { config: mergeConfig(current.config, changes.config) } : {}),
      }),
    );
    this.runtime.model.upsertMember(record);
    return this.info(name);
  }

  /**
   * Renames a member that hosts nothing (instance locations and allocations
   * name it, so a busy member is refused with a conflict). The renamed member
   * joins anew: it moves to the end of the join order.
   */
  async rename(name: string, newName: string): Promise<MemberInfo> {
    await this.runtime.ensureMember(name);
    const record = this.state(name).record;
    if (!MEMBER_NAME.test(newName)) throw invalid(`Invalid member name "${newName}"`);
    if (this.runtime.model.member(newName) !== undefined) {
      throw new EngineError("conflict", `Cluster member "${newName}" already exists`);
    }
    if (this.state(name).instanceCount > 0 || this.state(name).pendingCount > 0) {
      throw new EngineError("conflict", `Cluster member "${name}" can't be renamed while it hosts instances`);
    }
    await this.releaseRoot(name);
    const { generation: _generation, joinOrder: _joinOrder, createdAt: _createdAt, ...rest } = record;
    const created = await this.runtime.store.createMember({ ...rest, name: newName });
    try {
      await this.runtime.store.deleteMember(name);
    } catch (error) {
      await this.runtime.store.deleteMember(newName);
      throw error;
    }
    this.runtime.model.removeMember(name);
    this.runtime.model.upsertMember(created);
    this.runtime.model.setUsage(await this.runtime.store.memberUsage([newName]));
    return this.info(newName);
  }

  async delete(name: string): Promise<void> {
    await this.runtime.ensureMember(name);
    if (this.state(name).instanceCount === 0) await this.releaseRoot(name);
    await this.runtime.store.deleteMember(name);
    this.runtime.model.removeMember(name);
  }

  /** Rewrites derived inventories when they changed (e.g. new resources, ratios or root disk pools). */
  private async rederive(record: MemberRecord, rootPools: readonly string[]): Promise<MemberRecord> {
    const next = this.effectiveInventories(record.inventories, record.resources, record.state, rootPools);
    if (JSON.stringify(next) === JSON.stringify(record.inventories)) return record;
    return this.runtime.store.setInventories(record.name, next, record.generation);
  }

  /** PUT .../state: the heartbeat, optionally with the member's current state. */
  async heartbeat(name: string, state?: Record<string, unknown>): Promise<MemberInfo> {
    await this.runtime.ensureMember(name);
    const patch: MemberPatch = { lastHeartbeat: this.runtime.clock.now().toISOString() };
    if (state !== undefined) patch.state = state;
    let record = await this.runtime.store.updateMember(name, patch);
    if (state !== undefined) record = await this.rederive(record, await this.rootPools());
    this.runtime.model.upsertMember(record);
    return this.info(name);
  }

  async setResources(name: string, resources: Record<string, unknown>): Promise<MemberInfo> {
    await this.runtime.ensureMember(name);
    let record = await this.runtime.store.updateMember(name, { resources });
    record = await this.rederive(record, await this.rootPools());
    this.runtime.model.upsertMember(record);
    return this.info(name);
  }

  /** After the default allocation ratios or the root disk pools changed: re-derive every member's standard inventories. */
  async rederiveAll(): Promise<void> {
    const rootPools = await this.rootPools();
    for (const member of this.runtime.model.allMembers()) {
      const record = await this.rederive(member.record, rootPools);
      this.runtime.model.upsertMember(record);
    }
  }

  inventories(name: string): { generation: number; inventories: Record<string, InventoryView> } {
    const member = this.state(name);
    const inventories: Record<string, InventoryView> = {};
    for (const [resourceClass, inventory] of Object.entries(member.record.inventories)) {
      inventories[resourceClass] = {
        ...inventory,
        used: member.used.get(resourceClass) ?? 0,
        forthcoming: member.forthcoming.get(resourceClass) ?? 0,
        capacity: inventoryCapacity(inventory),
      };
    }
    return { generation: member.record.generation, inventories };
  }

  /**
   * Sets explicit inventories (`null` removes one, letting a standard class fall
   * back to its derived value). Generation-checked; removing a class with
   * allocations is refused by the store.
   */
  async setInventories(
    name: string,
    changes: Record<string, InventoryInput | null>,
    expectedGeneration: number,
    replaceAll = false,
  ): Promise<{
    /** The member's generation after the write. */
    generation: number;
    /** Resource class -> inventory with usage, every class the member now has. */
    inventories: Record<string, InventoryView>;
  }> {
    await this.runtime.ensureMember(name);
    const member = this.state(name);
    const record = member.record;
    // Derived inventories stay as they are (re-derived below); explicit ones are what changes.
    const explicit: Record<string, InventoryRecord> = {};
    for (const [resourceClass, inventory] of Object.entries(record.inventories)) {
      if (inventory.source === "derived" || !replaceAll) explicit[resourceClass] = inventory;
    }
    for (const [resourceClass, input] of Object.entries(changes)) {
      if (!isWellFormedResourceClass(resourceClass))
        throw invalid(`Invalid resource class "${resourceClass}"`);
      if (input === null) {
        if (record.inventories[resourceClass] === undefined) {
          throw notFound(`No inventory of ${resourceClass} on cluster member "${name}"`);
        }
        delete explicit[resourceClass];
        continue;
      }
      const normalized = normalizeInventory(resourceClass, input);
      if (!normalized.ok) throw invalid(normalized.error.message);
      explicit[resourceClass] = toRecord(normalized.value, "explicit");
    }
    const next = this.effectiveInventories(explicit, record.resources, record.state, await this.rootPools());
    const updated = await this.runtime.store.setInventories(name, next, expectedGeneration);
    this.runtime.model.upsertMember(updated);
    return this.inventories(name);
  }
}
