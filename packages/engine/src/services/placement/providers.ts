/**
 * Placement resource providers as an engine concept: provider trees,
 * inventories (with @berth/resources' validation and capacity rules),
 * traits, aggregates and generations. The Store keeps the rows; the rules
 * are here, once, for every protocol that shows providers. Every change of
 * a provider's inventories, traits or (from Placement 1.19) aggregates
 * bumps its generation, written with a conditional update so a concurrent
 * writer loses with a generation conflict instead of overwriting.
 */
import { randomUUID } from "node:crypto";
import {
  CUSTOM_NAME_PATTERN,
  type Inventory,
  type InventoryInput,
  isStandardResourceClass,
  isStandardTrait,
  MAX_NAME_LENGTH,
  normalizeInventory,
  STANDARD_TRAITS,
  standardResourceClassId,
} from "@berth/resources";
import { conflict, EngineError, invalid, notFound } from "../../base/errors.js";
import type { MemberState } from "../../model/member-state.js";
import {
  allocationCandidates,
  type CandidateAnswer,
  type CandidateRequest,
} from "../../providers/candidates.js";
import { filterProviders, type ProviderFilter, type ProviderUsage } from "../../providers/filter.js";
import { memberOfRoot, memberRoot, memberRootUsage } from "../../providers/member-roots.js";
import { providerMessages as text } from "../../providers/messages.js";
import { type ProviderView, ProviderViews } from "../../providers/provider-view.js";
import { wouldLoop } from "../../providers/tree.js";
import { memberRootRow, newProviderRow } from "../../rules/ledger/member-root.js";
import { memberProviderUuid } from "../../rules/ledger/shared-ledger.js";
import type { EngineRuntime } from "../../runtime/runtime.js";
import type { MemberRootChange } from "../../store/port.js";
import { isRecordChanged } from "../../store/record-version.js";
import type { ProviderRecord } from "../../store/records.js";

/** Why a provider change was refused (EngineError.details.reason), for protocols that name it. */
export type ProviderRefusal =
  | "generation"
  | "name_taken"
  | "uuid_taken"
  | "has_children"
  | "inventory_exists"
  | "inventory_in_use"
  | "provider_in_use"
  | "member_root";

/** The store's refusal of a name another provider has. */
const isNameTaken = (error: unknown) =>
  error instanceof EngineError &&
  error.kind === "conflict" &&
  (error.details as { reason?: string } | undefined)?.reason === "name_taken";

const refuse = (kind: "conflict" | "invalid" | "not_found", message: string, reason?: ProviderRefusal) =>
  new EngineError(kind, message, reason === undefined ? undefined : { reason });

/** A Placement resource provider to create. */
export interface NewProvider {
  /** Its uuid (generated when absent). */
  uuid?: string;
  /** Unique among providers. */
  name: string;
  /** Its parent (absent or null: a new root). */
  parentUuid?: string | null;
}

/** A PUT of a provider: its name, and optionally a new parent. */
export interface ProviderChanges {
  /** Its new (or same) name. */
  name: string;
  /** undefined: unchanged. */
  parentUuid?: string | null;
}

/** Which traits `listTraits` answers (Placement's `GET /traits` filters). */
export interface TraitQuery {
  /** Only these names. */
  names?: readonly string[];
  /** Only names starting with this. */
  prefix?: string;
  /** true: only traits some provider has; false: only traits none has. */
  associated?: boolean;
}

/** Placement lists classes in id order: standard ones first, in their fixed order, then custom ones. */
function byClassId(a: string, b: string): number {
  const ia = standardResourceClassId(a) ?? Number.MAX_SAFE_INTEGER;
  const ib = standardResourceClassId(b) ?? Number.MAX_SAFE_INTEGER;
  return ia !== ib ? ia - ib : a.localeCompare(b);
}

/**
 * OpenStack Placement's resource providers (`engine.providers`): the trees, inventories, traits,
 * aggregates and allocation candidates, on the same ledger as members (a member is the root
 * provider of its tree).
 */
export class Providers {
  private readonly views = new ProviderViews();

  constructor(private readonly runtime: EngineRuntime) {}

  private get store() {
    return this.runtime.store;
  }

  private now(): string {
    return this.runtime.clock.now().toISOString();
  }

  /**
   * Every provider as Placement shows it, in creation order, and what each
   * holds: the engine's provider model (rows and consumers' sums) with every
   * member as a root provider, kept between requests (provider-view.ts),
   * never a query per request.
   */
  private async view(): Promise<ProviderView> {
    await this.runtime.sync();
    const model = this.runtime.providerModel;
    const revision = model.rowsRevision;
    const rows = await model.providers(this.store);
    // A read that raced a change of the rows builds a view that is not kept.
    const settled = model.rowsRevision === revision ? revision : undefined;
    return this.views.current(rows, settled, this.runtime.model.allMembers(), model.consumersUsed());
  }

  /** Providers as Placement lists them (members' roots included), filtered. */
  async list(filter: ProviderFilter = {}): Promise<ProviderRecord[]> {
    const { providers, usage } = await this.view();
    return filterProviders(providers, filter, usage);
  }

  /** Placement's allocation candidates for one un-grouped request (see `candidates.ts`). */
  async candidates(request: CandidateRequest): Promise<CandidateAnswer> {
    const view = await this.view();
    return allocationCandidates(view.candidateIndex(), view.usage, request);
  }

  /**
   * Root providers created through Placement that are not members, with
   * what their classes hold: the LXD API lists them among the members, with
   * a status saying so (they never heartbeat, so LXD placements never pick
   * them; Placement clients allocate on them).
   */
  async placementRoots(): Promise<
    {
      /** The root provider's record. */
      provider: ProviderRecord;
      /** Resource class -> what consumers hold of it on the provider. */
      used: Readonly<Record<string, number>>;
    }[]
  > {
    const { providers, usage } = await this.view();
    return providers
      .filter((p) => p.parentUuid === null && this.memberOf(p) === undefined)
      .map((provider) => ({ provider, used: usage.get(provider.uuid) ?? {} }));
  }

  /** What each provider's classes hold: its consumers' allocations (and a member's instances). */
  async usage(): Promise<ProviderUsage> {
    return (await this.view()).usage;
  }

  /** What one provider's classes hold, authoritative for consumers (a member root adds its instances). */
  async usageOf(uuid: string): Promise<Record<string, number>> {
    const consumers = (await this.store.consumers.usage([uuid])).get(uuid) ?? {};
    const provider = await this.find(uuid);
    const member = provider === undefined ? undefined : this.memberOf(provider);
    return member === undefined ? consumers : memberRootUsage(member);
  }

  /** The member `provider` is the root of, if it is one (as this engine's model has it). */
  memberOf(provider: Pick<ProviderRecord, "uuid" | "name" | "parentUuid">): MemberState | undefined {
    return memberOfRoot(provider, (name) => this.runtime.model.member(name));
  }

  /** A provider as Placement shows it, if it exists: its row, or a member's root. */
  async find(uuid: string): Promise<ProviderRecord | undefined> {
    await this.runtime.sync();
    return this.known(uuid);
  }

  /**
   * `find` on the model as it stands, without reading the change feed first:
   * for a write the store checks again, which reads the feed and runs once
   * more only when refused (`Consumers.allocate`).
   */
  async known(uuid: string): Promise<ProviderRecord | undefined> {
    const row = await this.runtime.providerModel.provider(this.store, uuid);
    if (row !== undefined) {
      const member = this.memberOf(row);
      return member === undefined ? row : memberRoot(member.record, row);
    }
    for (const member of this.runtime.model.allMembers())
      if (memberProviderUuid(member.name) === uuid) return memberRoot(member.record, undefined);
    return undefined;
  }

  /** One provider; not_found when absent. */
  async get(uuid: string): Promise<ProviderRecord> {
    const found = await this.find(uuid);
    if (found === undefined) throw notFound(text.notFound(uuid));
    return found;
  }

  /**
   * The provider's stored row (for a member's root: the row as stored,
   * Placement's own fields only), written first for a member's root that
   * exists only in the view (a claim or a child needs the row). Two servers
   * doing it at once: one writes, the other reads it.
   */
  async row(uuid: string, known?: ProviderRecord): Promise<ProviderRecord> {
    const found = known ?? (await this.get(uuid));
    const member = this.memberOf(found);
    if (member === undefined) return found;
    const stored = await this.store.providers.get({ name: uuid });
    if (stored !== undefined) return stored;
    try {
      return await this.store.providers.create(memberRootRow(member.name, this.now()));
    } catch (error) {
      const raced = await this.store.providers.get({ name: uuid });
      if (raced === undefined) throw error;
      return raced;
    }
  }

  /**
   * Creates a provider. Reads only what it names (the uuid, the parent, the
   * members' names): the store refuses a name another provider has, so
   * creating many providers costs the same for each.
   */
  async create(input: NewProvider): Promise<ProviderRecord> {
    const uuid = input.uuid ?? randomUUID();
    if ((await this.find(uuid)) !== undefined) throw refuse("conflict", text.uuidTaken(uuid), "uuid_taken");
    if (this.runtime.model.member(input.name) !== undefined)
      throw refuse("conflict", text.nameTaken(input.name), "name_taken");
    const parentUuid = input.parentUuid ?? null;
    let rootUuid = uuid;
    if (parentUuid === uuid) throw invalid(text.selfParent(input.name, uuid));
    if (parentUuid !== null) {
      const parent = await this.find(parentUuid);
      if (parent === undefined) throw invalid(text.parentMissing());
      rootUuid = parent.rootUuid;
      // A child of a member's root: the root needs its row now.
      await this.row(parentUuid);
    }
    const now = this.now();
    try {
      return await this.written(() =>
        this.store.providers.create(newProviderRow({ uuid, name: input.name, parentUuid, rootUuid }, now)),
      );
    } catch (error) {
      if (isNameTaken(error)) throw refuse("conflict", text.nameTaken(input.name), "name_taken");
      throw error;
    }
  }

  /**
   * Renames and (with `allowReparent`, Placement 1.37) moves a provider.
   * Before 1.37 a parent, once set, stays; a root may gain one. A move
   * re-roots the whole subtree.
   */
  async update(uuid: string, changes: ProviderChanges, allowReparent: boolean): Promise<ProviderRecord> {
    const { providers } = await this.view();
    const byUuid = new Map(providers.map((p) => [p.uuid, p]));
    const current = byUuid.get(uuid);
    if (current === undefined) throw notFound(text.notFound(uuid));
    const member = this.memberOf(current);
    if (member !== undefined) {
      // The member's name and place (a root) are the member's, changed through the cluster API.
      if (changes.name !== current.name || (changes.parentUuid ?? null) !== null)
        throw refuse("conflict", text.memberRootFixed(uuid, member.name), "member_root");
      return current;
    }
    if (providers.some((p) => p.name === changes.name && p.uuid !== uuid))
      throw refuse("conflict", text.nameTaken(changes.name), "name_taken");
    const parentUuid = changes.parentUuid === undefined ? current.parentUuid : changes.parentUuid;
    let rootUuid = current.rootUuid;
    if (parentUuid !== current.parentUuid) {
      if (current.parentUuid !== null && !allowReparent)
        throw invalid(parentUuid === null ? text.unparent(uuid) : text.reparent(uuid));
      if (parentUuid === null) rootUuid = uuid;
      else {
        const parent = byUuid.get(parentUuid);
        if (parent === undefined) throw invalid(text.parentMissing());
        if (wouldLoop(byUuid, uuid, parentUuid)) throw invalid(text.loop());
        rootUuid = parent.rootUuid;
        await this.row(parentUuid);
      }
    }
    const updated = { ...current, name: changes.name, parentUuid, rootUuid, updatedAt: this.now() };
    const stored = await this.written(() => this.store.providers.update(updated, current));
    if (rootUuid !== current.rootUuid) await this.reroot(providers, uuid, rootUuid);
    return stored;
  }

  private async reroot(providers: readonly ProviderRecord[], uuid: string, rootUuid: string): Promise<void> {
    for (const provider of providers) {
      if (provider.uuid === uuid || !this.isBelow(providers, provider, uuid)) continue;
      await this.written(() => this.store.providers.update({ ...provider, rootUuid }, provider));
    }
  }

  private isBelow(providers: readonly ProviderRecord[], provider: ProviderRecord, ancestor: string): boolean {
    const byUuid = new Map(providers.map((p) => [p.uuid, p]));
    let cursor = provider.parentUuid;
    while (cursor !== null) {
      if (cursor === ancestor) return true;
      cursor = byUuid.get(cursor)?.parentUuid ?? null;
    }
    return false;
  }

  /**
   * Deletes a provider; conflict for a member's root, a provider with children or one whose
   * inventories are in use.
   */
  async delete(uuid: string): Promise<void> {
    const found = await this.find(uuid);
    if (found === undefined) throw notFound(text.notFoundForDelete(uuid));
    const member = this.memberOf(found);
    if (member !== undefined)
      throw refuse("conflict", text.memberRootDelete(uuid, member.name), "member_root");
    try {
      await this.written(() => this.store.providers.delete({ name: uuid }));
    } catch (error) {
      if (error instanceof EngineError && error.kind === "conflict") {
        const inUse = Object.keys((await this.store.consumers.usage([uuid])).get(uuid) ?? {}).length > 0;
        throw inUse
          ? refuse("conflict", text.providerInUse(uuid), "provider_in_use")
          : refuse("conflict", text.hasChildren(uuid), "has_children");
      }
      throw error;
    }
  }

  // --- inventories -------------------------------------------------------------------

  /** Replaces every inventory of the provider (Placement `PUT .../inventories`). */
  async setInventories(
    uuid: string,
    generation: number,
    inputs: Readonly<Record<string, InventoryInput>>,
  ): Promise<ProviderRecord> {
    const current = await this.atGeneration(uuid, generation);
    const inventories: Record<string, Inventory> = {};
    for (const [resourceClass, input] of Object.entries(inputs)) {
      inventories[resourceClass] = await this.checkedInventory(uuid, resourceClass, input);
    }
    return this.bump(current, { inventories });
  }

  /** Adds one inventory (Placement `POST .../inventories`); without `generation`, at the current one. */
  async addInventory(
    uuid: string,
    generation: number | undefined,
    resourceClass: string,
    input: InventoryInput,
  ): Promise<ProviderRecord> {
    const current =
      generation === undefined ? await this.get(uuid) : await this.atGeneration(uuid, generation);
    const inventory = await this.checkedInventory(uuid, resourceClass, input, "create", true);
    if (current.inventories[resourceClass] !== undefined)
      throw refuse("conflict", text.inventoryExists(uuid, resourceClass), "inventory_exists");
    return this.bump(current, { inventories: { ...current.inventories, [resourceClass]: inventory } });
  }

  /** Changes one existing inventory (Placement `PUT .../inventories/{class}`). */
  async updateInventory(
    uuid: string,
    generation: number,
    resourceClass: string,
    input: InventoryInput,
  ): Promise<ProviderRecord> {
    const current = await this.atGeneration(uuid, generation);
    const inventory = await this.checkedInventory(uuid, resourceClass, input, "update", true);
    if (current.inventories[resourceClass] === undefined)
      throw invalid(text.noInventoryToUpdate(uuid, resourceClass));
    return this.bump(current, { inventories: { ...current.inventories, [resourceClass]: inventory } });
  }

  /** Removes one inventory; without `generation`, at whatever generation the provider has. */
  async deleteInventory(uuid: string, resourceClass: string, generation?: number): Promise<ProviderRecord> {
    const current =
      generation === undefined ? await this.get(uuid) : await this.atGeneration(uuid, generation);
    if (current.inventories[resourceClass] === undefined)
      throw notFound(text.noInventoryToDelete(resourceClass));
    const inventories = { ...current.inventories };
    delete inventories[resourceClass];
    return this.bump(current, { inventories });
  }

  /**
   * Removes every inventory of a provider (at `generation` when given); conflict while any is in
   * use.
   */
  async deleteAllInventories(uuid: string, generation?: number): Promise<ProviderRecord> {
    const current =
      generation === undefined ? await this.get(uuid) : await this.atGeneration(uuid, generation);
    return this.bump(current, { inventories: {} });
  }

  private async checkedInventory(
    uuid: string,
    resourceClass: string,
    input: InventoryInput,
    action: "create" | "update" = "update",
    /** One named inventory (POST, PUT of one class) rather than a whole set: Placement words it differently. */
    single = false,
  ): Promise<Inventory> {
    if (!(await this.classExists(resourceClass)))
      throw invalid(single ? text.noSuchClass(resourceClass) : text.unknownClass(uuid, resourceClass));
    const normalized = normalizeInventory(resourceClass, input);
    if (!normalized.ok) {
      const detail =
        normalized.error.kind === "reserved-exceeds-total"
          ? `Invalid inventory for '${resourceClass}' on resource provider '${uuid}'. The reserved value is greater than total.`
          : normalized.error.message;
      throw invalid(text.badInventory(action, uuid, detail));
    }
    return normalized.value;
  }

  private async classExists(name: string): Promise<boolean> {
    return isStandardResourceClass(name) || (await this.store.resourceClasses.get({ name })) !== undefined;
  }

  // --- traits ------------------------------------------------------------------------

  /** Replaces a provider's traits at the generation the caller read; every trait must exist. */
  async setProviderTraits(
    uuid: string,
    generation: number,
    traits: readonly string[],
  ): Promise<ProviderRecord> {
    const current = await this.get(uuid);
    const missing: string[] = [];
    for (const name of traits) if (!(await this.traitExists(name))) missing.push(name);
    if (missing.length > 0) throw invalid(text.traitsNotFound(missing));
    if (current.generation !== generation)
      throw refuse("conflict", text.traitsGenerationConflict(), "generation");
    return this.bump(current, { traits: [...new Set(traits)].sort() });
  }

  /** Removes every trait of a provider (Placement's DELETE names no generation). */
  async deleteProviderTraits(uuid: string): Promise<ProviderRecord> {
    const current = await this.get(uuid);
    const member = this.memberOf(current);
    // Placement's DELETE of a provider's traits names no generation.
    if (member !== undefined) return this.writeRoot(member, undefined, { kind: "traits", traits: [] });
    return this.bump(current, { traits: [] });
  }

  /** Trait names (standard and custom), sorted, filtered by `query`. */
  async listTraits(query: TraitQuery = {}): Promise<string[]> {
    const custom = (await this.store.traits.list()).map((t) => t.name);
    let names = [...STANDARD_TRAITS, ...custom];
    if (query.names !== undefined) {
      const wanted = new Set(query.names);
      names = names.filter((n) => wanted.has(n));
    }
    if (query.prefix !== undefined) names = names.filter((n) => n.startsWith(query.prefix as string));
    if (query.associated !== undefined) {
      // A member's root has the member's traits (the view), not its row's.
      const used = new Set((await this.view()).providers.flatMap((p) => p.traits));
      names = names.filter((n) => used.has(n) === query.associated);
    }
    return names.sort();
  }

  /** Whether a trait exists: a standard name, or a custom one stored. */
  async traitExists(name: string): Promise<boolean> {
    return isStandardTrait(name) || (await this.store.traits.get({ name })) !== undefined;
  }

  /** Creates a custom trait unless it exists; standard names exist already. */
  async ensureTrait(name: string): Promise<{
    /** True when the trait was created now; false when it existed (or is standard). */
    created: boolean;
  }> {
    if (await this.traitExists(name)) return { created: false };
    if (name.length > MAX_NAME_LENGTH || !CUSTOM_NAME_PATTERN.test(name)) throw invalid(text.traitInvalid());
    try {
      await this.written(() => this.store.traits.create({ name, createdAt: this.now() }));
      return { created: true };
    } catch (error) {
      if (error instanceof EngineError && error.kind === "conflict") return { created: false };
      throw error;
    }
  }

  /**
   * Deletes a custom trait; invalid for a standard one, conflict while a provider or member has
   * it.
   */
  async deleteTrait(name: string): Promise<void> {
    if (isStandardTrait(name)) throw invalid(text.traitStandard(name));
    if ((await this.store.traits.get({ name })) === undefined) throw notFound(text.traitNotFound(name));
    // Whether a provider or a member (its root shows the member's traits) holds it is
    // the Store's to judge, in the delete's transaction: a check here would race a member write.
    try {
      await this.written(() => this.store.traits.delete({ name }));
    } catch (error) {
      if (error instanceof EngineError && error.kind === "conflict") throw conflict(text.traitInUse(name));
      throw error;
    }
  }

  // --- aggregates ----------------------------------------------------------------------

  /**
   * Replaces the provider's aggregates. With `generation` (Placement 1.19)
   * the change is generation-checked and bumps it; without, it does not.
   */
  async setAggregates(
    uuid: string,
    aggregates: readonly string[],
    generation?: number,
  ): Promise<ProviderRecord> {
    const unique = [...new Set(aggregates)];
    const member = this.memberOf(await this.get(uuid));
    if (member !== undefined)
      return this.writeRoot(member, generation, { kind: "aggregates", aggregates: unique });
    if (generation === undefined) {
      const current = await this.row(uuid);
      const stored = await this.written(() =>
        this.store.providers.update({ ...current, aggregates: unique, updatedAt: this.now() }, current),
      );
      return this.shown(stored);
    }
    const current = await this.atGeneration(uuid, generation);
    return this.bump(current, { aggregates: unique });
  }

  // --- generations ---------------------------------------------------------------------

  private async atGeneration(uuid: string, generation: number): Promise<ProviderRecord> {
    const current = await this.get(uuid);
    if (current.generation !== generation) throw refuse("conflict", text.generationConflict(), "generation");
    return current;
  }

  /**
   * Writes `changes` at the next generation, only if nobody wrote the
   * provider since it was read. A member's root keeps its inventories on
   * the member (their one home): they are written there first, as the
   * member's explicit inventories, and the row keeps a copy.
   */
  private async bump(
    current: ProviderRecord,
    changes: Partial<Pick<ProviderRecord, "inventories" | "traits" | "aggregates">>,
  ): Promise<ProviderRecord> {
    const inventories = changes.inventories;
    if (inventories !== undefined) {
      // Named all at once in Placement's text; the store re-checks atomically.
      const used = await this.usageOf(current.uuid);
      const dropped = Object.keys(used)
        .filter((resourceClass) => inventories[resourceClass] === undefined)
        .sort(byClassId);
      if (dropped.length > 0)
        throw refuse("conflict", text.inventoryInUse(current.uuid, dropped), "inventory_in_use");
    }
    const member = this.memberOf(current);
    if (member === undefined) {
      const next = { ...current, ...changes, generation: current.generation + 1, updatedAt: this.now() };
      return this.written(() => this.store.providers.update(next, current));
    }
    const change: MemberRootChange =
      changes.inventories !== undefined
        ? { kind: "inventories", inventories: changes.inventories }
        : changes.traits !== undefined
          ? { kind: "traits", traits: changes.traits }
          : { kind: "aggregates", aggregates: changes.aggregates ?? current.aggregates };
    return this.writeRoot(member, current.generation, change);
  }

  /**
   * Writes a member's root in one Store transaction (rules/ledger/member-root.ts):
   * inventories and traits are the member's, aggregates the row's; the
   * generation and the in-use refusal are judged there, on the one ledger.
   */
  private async writeRoot(
    member: MemberState,
    generation: number | undefined,
    change: MemberRootChange,
  ): Promise<ProviderRecord> {
    const uuid = memberProviderUuid(member.name);
    try {
      const written = await this.store.writeMemberRoot({
        member: member.name,
        ...(generation !== undefined ? { expectedGeneration: generation } : {}),
        change,
      });
      this.runtime.model.upsertMember(written.member);
      return memberRoot(written.member, written.row);
    } catch (error) {
      const details =
        error instanceof EngineError ? (error.details as { reason?: string; classes?: string[] }) : {};
      if (details?.reason === "generation")
        throw refuse(
          "conflict",
          change.kind === "traits" ? text.traitsGenerationConflict() : text.generationConflict(),
          "generation",
        );
      if (details?.reason === "inventory_in_use")
        throw refuse(
          "conflict",
          text.inventoryInUse(uuid, [...(details.classes ?? [])].sort(byClassId)),
          "inventory_in_use",
        );
      throw error;
    }
  }

  /** A stored row as Placement shows it (a member's root with the member's inventories). */
  private shown(row: ProviderRecord): ProviderRecord {
    const member = this.memberOf(row);
    return member === undefined ? row : memberRoot(member.record, row);
  }

  /** A lost conditional write is a generation conflict in Placement's terms. */
  private async written<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isRecordChanged(error)) throw refuse("conflict", text.generationConflict(), "generation");
      throw error;
    }
  }
}
