/**
 * The Store port: everything the engine needs from durable storage.
 *
 * The engine keeps an in-memory model for fast decisions, but the store is the
 * truth. Two rules make that safe:
 *  - every write that consumes resources goes through `claim`, which re-checks
 *    capacity and project limits against the store's OWN usage inside one
 *    transaction, so concurrent engines (or processes) can never overcommit;
 *  - member inventories/traits carry a generation, and instances a revision,
 *    so read-modify-write races surface as typed conflicts.
 *
 * Errors: implementations throw `EngineError` (src/errors.ts) with kind
 * "not_found", "conflict" or "insufficient_capacity"; claim failures carry
 * `ClaimFailureDetails` in `details`.
 */

import type { Inventory } from "@berth/resources";
import type { ChangeEntry, ChangeFeed, ClaimEffect } from "./change-feed.js";
import type {
  ConfigRecord,
  ConsumerRecord,
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
} from "./records.js";

/** Identifies a catalog record: `project` only for project-scoped tables. */
export interface RecordKey {
  /** The record's name (an image's fingerprint for the images table). */
  name: string;
  /** The record's project; absent for tables that are not project-scoped. */
  project?: string;
}

/**
 * A simple keyed table. `delete` refuses (conflict) when the record is still
 * referenced, as documented per table on `Store`.
 */
export interface CatalogTable<T> {
  /** Every record, or with `filter.project` only that project's (project-scoped tables). */
  list(filter?: { project?: string }): Promise<T[]>;
  /** The record at `key`, or undefined when there is none. */
  get(key: RecordKey): Promise<T | undefined>;
  /** conflict if the key exists. */
  create(record: T): Promise<T>;
  /**
   * not_found if the key does not exist; the key fields of `record` select
   * the row. With `expected` (the record as the caller read it), the write
   * is conditional: when the stored row is no longer that version
   * (`sameVersion`, store/record-version.ts) nothing is written and the
   * store throws `recordChanged` (conflict, details `{reason: "changed"}`),
   * checked and written in one transaction.
   */
  update(record: T, expected?: T): Promise<T>;
  /** not_found if absent; conflict if still in use. */
  delete(key: RecordKey): Promise<void>;
}

/**
 * One consumer's new allocations in an all-or-nothing consumer claim. An
 * empty `allocations` list deletes the consumer.
 */
export interface ConsumerWrite {
  /** The consumer with its new allocations; the store sets generation and timestamps. */
  record: Omit<ConsumerRecord, "generation" | "createdAt" | "updatedAt">;
  /** null: the consumer must not exist yet; a number: the generation it must have; absent: unchecked. */
  expectedGeneration?: number | null;
}

/**
 * Placement consumers. `claim` is the only write: inside one transaction
 * the store reads the consumers and providers the writes touch, calls the
 * engine's `checkConsumerClaim` (generations, unit constraints, capacity
 * with Placement's formula) and writes what it returns. Providers with
 * allocations cannot be deleted (conflict, reason `provider_in_use`), and a
 * provider update cannot drop the inventory of a class it has allocations
 * of (conflict, reason `inventory_in_use`).
 */
export interface ConsumerTable {
  /** The consumer with this UUID and its allocations, or undefined when there is none. */
  get(uuid: string): Promise<ConsumerRecord | undefined>;
  /** Consumers holding allocations on `provider`, or of `project` (and `user`). */
  list(filter?: { provider?: string; project?: string; user?: string }): Promise<ConsumerRecord[]>;
  /** Used amounts per class of each named provider (all providers when omitted). */
  usage(providers?: readonly string[]): Promise<Map<string, Record<string, number>>>;
  /** Stored versions of the written consumers (deleted ones absent). */
  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]>;
  /**
   * Placement's reshaper: replaces some providers' inventories and writes
   * consumers' allocations in one transaction, checked by the engine's
   * `checkReshape` over the rows `reshapeProvidersToRead` names; all or
   * nothing. Answers the stored versions of the written consumers.
   */
  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]>;
}

/** The inventories one provider ends with in a reshape, at the generation the caller read. */
export interface InventoryReplacement {
  /** UUID of the provider whose inventories are replaced. */
  provider: string;
  /** The provider's generation as the caller read it; a different stored one is a conflict. */
  expectedGeneration: number;
  /** Resource class -> inventory: the provider's whole new set (a class left out is removed). */
  inventories: Readonly<Record<string, Inventory>>;
  /**
   * The member whose root `provider` is (engine `memberProviderUuid`), when
   * it is one: the reshape writes the member's inventories, and creates the
   * root's row when it has none yet (rules/ledger/member-root.ts).
   */
  member?: string;
}

/** One `POST /reshaper`: providers' new inventories and consumers' new allocations, together. */
export interface ReshapeWrite {
  /** Each touched provider's new inventories, checked against its generation. */
  inventories: readonly InventoryReplacement[];
  /** As a consumer claim writes them (empty allocations: the consumer goes). */
  writes: readonly ConsumerWrite[];
}

/** What one Placement write changes on a member's root provider. */
export type MemberRootChange =
  | {
      /** Replaces the member's inventories (`PUT .../inventories`). */
      kind: "inventories";
      /** Resource class -> inventory: the whole new set (a class left out is removed). */
      inventories: Readonly<Record<string, Inventory>>;
    }
  | {
      /** Replaces the member's traits (`PUT .../traits`). */
      kind: "traits";
      /** The whole new set of trait names. */
      traits: readonly string[];
    }
  | {
      /** Replaces the root's aggregates (`PUT .../aggregates`). */
      kind: "aggregates";
      /** The whole new set of aggregate UUIDs. */
      aggregates: readonly string[];
    };

/**
 * One Placement write of a member's root provider (rules/ledger/member-root.ts):
 * inventories and traits are the member's, aggregates the root's row's.
 */
export interface MemberRootWrite {
  /** Name of the member whose root provider is written. */
  member: string;
  /** Placement's generation of the root as the caller read it; absent: unchecked (aggregates before 1.19). */
  expectedGeneration?: number;
  /** What the write replaces: the inventories, the traits or the aggregates. */
  change: MemberRootChange;
}

/** A member's root after a write: the member and the root's stored row (if it has one). */
export interface MemberRootWritten {
  /** The member as stored after the write (its generation moved for inventories or traits). */
  member: MemberRecord;
  /** The root's provider row (aggregates live there); undefined when it still has none. */
  row: ProviderRecord | undefined;
}

/** Fields of a member that `updateMember` may change. */
export type MemberPatch = Partial<
  Pick<
    MemberRecord,
    | "url"
    | "architecture"
    | "description"
    | "failureDomain"
    | "roles"
    | "groups"
    | "config"
    | "traits"
    | "evacuated"
    | "lastHeartbeat"
    | "state"
    | "resources"
  >
>;

/** New member: the store assigns `generation`, `joinOrder` and `createdAt`. */
export type NewMember = Omit<MemberRecord, "generation" | "joinOrder" | "createdAt">;

/** New instance: the store assigns `revision`. */
export type NewInstance = Omit<InstanceRecord, "revision">;

/** LXD project limits, already parsed by the engine into numbers (absent = unlimited). */
export interface ProjectLimits {
  /** `limits.instances`: instances and reservations. */
  instances?: number;
  /** `limits.containers`. */
  containers?: number;
  /** `limits.virtual-machines`. */
  virtualMachines?: number;
  /** `limits.cpu`: CPUs in all. */
  cpu?: number;
  /** `limits.memory`, in bytes. */
  memoryBytes?: number;
  /** `limits.disk`, in bytes. */
  diskBytes?: number;
}

/**
 * One all-or-nothing write. The store applies every part or none:
 *  - `create`: new instances with their allocations. conflict if the id or
 *    (project, name) is taken. The empty name (an unnamed reservation) is
 *    exempt from the name rule: such records are addressed by id.
 *    Every created or replaced instance's project must exist (not_found
 *    `Project "x" not found`).
 *  - `replace`: existing instances rewritten whole (move, rename, commit of a
 *    reservation, resize, edit). conflict if `expectedRevision` differs.
 *  - `remove`: deletes instances and frees their allocations.
 *
 * Capacity rule, checked against the store's authoritative usage AFTER the
 * whole claim is applied: for every (member, class) whose total consumption
 * (both ledgers) grows, `used + forthcoming <= (total - reserved) * ratio`.
 * Every allocation row that is new or grew must respect min_unit, max_unit
 * and step_size of its inventory, and the member and class must exist.
 * Consumption that does not grow is never re-checked, so shrinking an
 * inventory below usage does not block commits, moves within a member or
 * deletions.
 *
 * Project limits: for every project in `projectLimits`, each limited
 * dimension that the claim increases must stay within its limit afterwards.
 *
 * A Store implements none of this itself: it reads the rows the claim
 * touches, calls the engine's claim rules (`checkClaim`, src/rules/claims/)
 * and writes what they return.
 */
export interface Claim {
  /** New instances (and reservations) with their allocations. */
  create?: NewInstance[];
  /** Stored instances rewritten whole, each only while it is at `expectedRevision`. */
  replace?: {
    /** The instance as it is to be stored (its id selects the row). */
    record: NewInstance;
    /** The revision the caller read; a different stored one fails the claim (reason `revision`). */
    expectedRevision: number;
  }[];
  /** Instances to delete; with `expectedRevision`, only while they are at it. */
  remove?: {
    /** The instance's id. */
    id: string;
    /** The revision the caller read; absent: deleted whatever its revision. */
    expectedRevision?: number;
  }[];
  /** The limits of each project the claim's records belong to (absent: unlimited). */
  projectLimits?: Record<string, ProjectLimits>;
  /**
   * Maintenance states the claim sets with its moves, in the same
   * transaction: an evacuation marks its member evacuated as its instances
   * leave, a restore lifts it as they return, so a crash leaves the
   * cluster before or after, never half-way.
   */
  memberStates?: MemberStateChange[];
  /**
   * Set by an engine that applies the claim's effect to its own model as
   * soon as the claim commits (runtime/feed-sync.ts): the store writes it into
   * the claim's change-feed entry (`claimEntryOf`), by which that engine
   * knows the entry when it reads it back and does not apply it twice.
   * Unique per claim attempt.
   */
  token?: string;
}

/**
 * A member's evacuated flag set in the same transaction as a claim's moves (an evacuation or a
 * restore lands whole).
 */
export interface MemberStateChange {
  /** The member's name. */
  member: string;
  /** Its new evacuated flag. */
  evacuated: boolean;
}

/**
 * What a committed claim answers: the instances as stored, the touched members' usage and the
 * claim's effect.
 */
export interface ClaimResult {
  /** Created and replaced instances as stored (with their new revisions). */
  instances: InstanceRecord[];
  /** Authoritative usage of every member the claim touched, after the claim. */
  usage: MemberUsage[];
  /** What the claim did to usage and counts: the effect its change-feed entry carries (`claimResultOf`). */
  effect: ClaimEffect;
}

/** What `EngineError.details` holds when a claim fails. */
export type ClaimFailureDetails =
  | {
      /** A member would hold more of a class than its capacity. */
      reason: "capacity";
      /** The member that is short. */
      member: string;
      /** The resource class that is short (e.g. `MEMORY_MB`). */
      resourceClass: string;
      /** What the claim would add on the member, in the class's unit. */
      requested: number;
      /** What the member already holds (both ledgers), in the class's unit. */
      used: number;
      /** `(total - reserved) * allocation_ratio` of the member's inventory. */
      capacity: number;
    }
  | {
      /** An allocation breaks its inventory's min_unit, max_unit or step_size. */
      reason: "constraints";
      /** The member of the inventory. */
      member: string;
      /** The inventory's resource class. */
      resourceClass: string;
      /** The offending allocation amount. */
      amount: number;
      /** The inventory's smallest allowed allocation. */
      minUnit: number;
      /** The inventory's largest allowed allocation. */
      maxUnit: number;
      /** Allocations must be multiples of this. */
      stepSize: number;
    }
  | {
      /** The claim allocates a class the member has no inventory of. */
      reason: "no_inventory";
      /** The member without the inventory. */
      member: string;
      /** The class asked for. */
      resourceClass: string;
    }
  | {
      /** The claim places on a member that does not exist (any more). */
      reason: "member_missing";
      /** The missing member's name. */
      member: string;
    }
  | {
      /** A member could not take over the mirrored instances of one failed primary (N+1). */
      reason: "failover";
      /** The secondary that could not take over. */
      member: string;
      /** The primary whose failure it must survive. */
      primary: string;
      /** MEMORY_MB it must keep free for `primary`'s instances mirrored on it. */
      requested: number;
      /** MEMORY_MB the member already uses. */
      used: number;
      /** The member's MEMORY_MB capacity. */
      capacity: number;
    }
  | {
      /** A project would exceed one of its `limits.*`. */
      reason: "project_limit";
      /** The project over its limit. */
      project: string;
      /** Which limit (e.g. `instances`, `memoryBytes`). */
      limit: keyof ProjectLimits;
      /** The project's total after the claim, in the limit's unit. */
      value: number;
      /** The limit's value. */
      max: number;
    }
  | {
      /** An instance of that name already exists in the project. */
      reason: "name_taken";
      /** The project of the name. */
      project: string;
      /** The name that is taken. */
      name: string;
    }
  | {
      /** An instance with that id already exists. */
      reason: "id_taken";
      /** The id that is taken. */
      id: string;
    }
  | {
      /** A replaced or removed instance is no longer at the revision the caller read. */
      reason: "revision";
      /** The instance's id. */
      id: string;
      /** The revision the claim expected. */
      expected: number;
      /** The revision stored now. */
      actual: number;
    }
  | {
      /** A replaced or removed instance does not exist (any more). */
      reason: "instance_missing";
      /** The missing instance's id. */
      id: string;
    };

/** Per-member usage per class, per ledger. */
export interface MemberUsage {
  /** The member. */
  member: string;
  /** Held by instances, per class. */
  used: Record<string, number>;
  /** Held by reservations, per class. */
  forthcoming: Record<string, number>;
}

/** Instance counts per (member, project); forthcoming ones are counted in `instances` too. */
export interface InstanceCountRow {
  /** The member. */
  member: string;
  /** The project. */
  project: string;
  /** Instances and reservations. */
  instances: number;
  /** Reservations among them. */
  forthcoming: number;
  /** Containers among them. */
  containers: number;
  /** Virtual machines among them. */
  virtualMachines: number;
}

/** Members of a placement group per member. */
export interface PlacementGroupCountRow {
  /** The group's project. */
  project: string;
  /** The placement group. */
  group: string;
  /** The member. */
  member: string;
  /** Instances of the group on the member. */
  instances: number;
}

/** What LXD project limits count, per project (all instances incl. reservations). */
export interface ProjectUsageRow {
  /** The project. */
  project: string;
  /** Instances and reservations. */
  instances: number;
  /** Containers. */
  containers: number;
  /** Virtual machines. */
  virtualMachines: number;
  /** CPUs counted against `limits.cpu`. */
  cpu: number;
  /** Bytes counted against `limits.memory`. */
  memoryBytes: number;
  /** Bytes counted against `limits.disk`. */
  diskBytes: number;
}

/**
 * Everything the engine needs at start-up, as aggregates: its size grows with
 * members, projects and groups, never with the number of instances.
 */
export interface StoreSnapshot {
  /** Every member record. */
  members: MemberRecord[];
  /** Every cluster group. */
  groups: GroupRecord[];
  /** Every project. */
  projects: ProjectRecord[];
  /** Every placement group. */
  placementGroups: PlacementGroupRecord[];
  /** The custom resource classes. */
  resourceClasses: ResourceClassRecord[];
  /** The server config and its version. */
  config: ConfigRecord;
  /** Usage per member, class and ledger. */
  usage: MemberUsage[];
  /** Instance counts per member and project. */
  instanceCounts: InstanceCountRow[];
  /** Placement-group members per member. */
  placementGroupCounts: PlacementGroupCountRow[];
  /** What each project's limits count. */
  projectUsage: ProjectUsageRow[];
  /**
   * What Placement consumers hold, per provider uuid and class (non-zero
   * sums), for the engine's provider model (providers/provider-model.ts),
   * taken with the rest (and `feedCursor`). Absent: none.
   */
  consumerUsage?: [provider: string, resourceClass: string, amount: number][];
  /**
   * For stores with a change feed: the cursor of exactly this snapshot
   * (taken in the same transaction), where an engine hydrated from it starts
   * reading the feed.
   */
  feedCursor?: string;
}

/** Which instances `listInstances` answers; every field given must match. */
export interface InstanceFilter {
  /** Only this project's. */
  project?: string;
  /** Only those located on this member. */
  location?: string;
  /** Instances mirrored on this member (their `secondary`). */
  secondary?: string;
  /** Only reservations (true) or only instances (false). */
  forthcoming?: boolean;
  /** Only members of this placement group. */
  placementGroup?: string;
}

/** Told of one committed write: the change-feed entries its transaction appended (see `Store.onCommittedWrite`). */
export type CommittedWriteListener = (entries: readonly ChangeEntry[]) => void;

/**
 * Everything the engine needs from storage. A Store checks nothing itself: every rule is the
 * engine's (`checkClaim` and the write rules), called inside the Store's own transaction;
 * `runStoreContract` (`@berth/engine/store-contract`) proves an implementation.
 */
export interface Store {
  /** Aggregated state for hydrating the engine's model. */
  snapshot(): Promise<StoreSnapshot>;

  // --- members ---------------------------------------------------------------
  /** Every member, in join order. */
  listMembers(): Promise<MemberRecord[]>;
  /** One member, or undefined. */
  getMember(name: string): Promise<MemberRecord | undefined>;
  /** conflict if the name exists; every group named must exist (not_found). */
  createMember(member: NewMember): Promise<MemberRecord>;
  /**
   * not_found if absent. With `expectedGeneration`, conflict when it differs.
   * With `expectedFields` (those fields as the caller read them), the write
   * is conditional: when any differs from the stored member nothing is
   * written and the store throws `recordChanged` (a merge of a PATCH,
   * services/members.ts). A change of `traits` bumps the generation;
   * heartbeats and state do not (rules/writes/member-update.ts).
   */
  updateMember(
    name: string,
    patch: MemberPatch,
    expectedGeneration?: number,
    expectedFields?: MemberPatch,
  ): Promise<MemberRecord>;
  /**
   * Makes exactly `members` the members of cluster group `group`, in one
   * transaction (rules/writes/group-members.ts): not_found when the group or
   * a named member does not exist, and then nothing changes. Answers the
   * members it wrote.
   */
  setGroupMembers(group: string, members: readonly string[]): Promise<MemberRecord[]>;
  /**
   * Replaces all inventories of a member. conflict when `expectedGeneration`
   * differs, or when a class that has allocations on this member would be
   * removed. Bumps the generation. Custom classes must exist (not_found).
   */
  setInventories(
    name: string,
    inventories: Record<string, InventoryRecord>,
    expectedGeneration: number,
  ): Promise<MemberRecord>;
  /** not_found if absent; conflict if any instance (or reservation) is located there. */
  deleteMember(name: string): Promise<void>;
  /**
   * Placement's write of a member's root provider, in one transaction:
   * reads the member (inventories, one ledger of instances, reservations
   * and the root's consumers, generation) and the root's row, calls the
   * engine's `checkMemberRootWrite` (generation conflict, inventory in use:
   * conflict with reason "generation" or "inventory_in_use") and writes the
   * member's explicit inventories or traits (its generation moves, a member
   * feed entry) or the row's aggregates (the row created when missing).
   * not_found when the member does not exist; custom classes must exist.
   */
  writeMemberRoot(write: MemberRootWrite): Promise<MemberRootWritten>;

  // --- catalog ---------------------------------------------------------------
  /** delete: conflict while any member is in the group. */
  readonly groups: CatalogTable<GroupRecord>;
  /** delete: conflict while the project has instances, profiles or placement groups. */
  readonly projects: CatalogTable<ProjectRecord>;
  /** Project-scoped. create: the project must exist. delete: conflict while an instance uses it. */
  readonly profiles: CatalogTable<ProfileRecord>;
  /** Flavors, by name. delete: no refusal here; the engine refuses a flavor an instance still names. */
  readonly flavors: CatalogTable<FlavorRecord>;
  /** Keyed by fingerprint (passed as `name` in RecordKey). */
  readonly images: CatalogTable<ImageRecord>;
  /** Project-scoped. delete: conflict while an instance belongs to the group. */
  readonly placementGroups: CatalogTable<PlacementGroupRecord>;
  /**
   * Custom classes. delete: conflict while any inventory (a member's or a
   * provider's) or allocation uses the class.
   */
  readonly resourceClasses: CatalogTable<ResourceClassRecord>;
  /**
   * Placement resource providers, keyed by uuid (`RecordKey.name`). create
   * and update: conflict when another provider has the name; not_found when
   * the parent does not exist. update with `expected` is the generation
   * check (the engine bumps `generation`). delete: conflict while the
   * provider has children.
   */
  readonly providers: CatalogTable<ProviderRecord>;
  /** Custom traits. delete: conflict while a provider has the trait. */
  readonly traits: CatalogTable<TraitRecord>;
  /** Placement consumers and their allocations on providers (see `ConsumerTable`). */
  readonly consumers: ConsumerTable;

  // --- instances ---------------------------------------------------------------
  /** By (project, name); the empty name never matches. */
  getInstance(project: string, name: string): Promise<InstanceRecord | undefined>;
  /** By the instance's id (UUID), or undefined when none has it. */
  getInstanceById(id: string): Promise<InstanceRecord | undefined>;
  /** Instances (and reservations) matching `filter`; all of them without one. */
  listInstances(filter?: InstanceFilter): Promise<InstanceRecord[]>;
  /** The only way to create, change or delete instances; see `Claim`. */
  claim(claim: Claim): Promise<ClaimResult>;
  /** Authoritative usage of the named members (refreshes the model after a lost race). */
  memberUsage(names: string[]): Promise<MemberUsage[]>;

  // --- server config -------------------------------------------------------------
  /** The server config: its keys and its version. */
  getConfig(): Promise<ConfigRecord>;
  /** Cheap read so other processes notice changes (e.g. a new scriptlet). */
  getConfigVersion(): Promise<number>;
  /**
   * Applies a patch (null deletes a key) and bumps the version. With
   * `expectedVersion`, conflict when it differs.
   */
  setConfig(patch: Record<string, string | null>, expectedVersion?: number): Promise<ConfigRecord>;

  /**
   * Optional: the change feed (store/change-feed.ts). Engines sharing a
   * store with a feed apply every committed change before they plan, so
   * their models follow each other's claims as well as member, catalog and
   * config changes; `snapshot()` must then return `feedCursor`.
   */
  readonly feed?: ChangeFeed;

  /**
   * Required with `feed`: calls `listener` once after each committed
   * transaction of this store object that appended change-feed entries,
   * with those entries in order, before the writer's `await` returns.
   * Heartbeats and state reports append no entry, so they never call it;
   * nor does a write that was refused or rolled back. Answers a function
   * that stops the calls. An engine learns of its own writes this way
   * (runtime/feed-sync.ts): every write that other engines will read from
   * the feed is one it must not wait to read itself.
   */
  onCommittedWrite?(listener: CommittedWriteListener): () => void;

  /**
   * Optional: a named lease (one holder at a time, for `ttlMs` unless
   * renewed). True when `holder` holds it now (acquired or renewed). Engines
   * run offline detection and healing only while they hold `healer`, so one
   * server at a time does it, and another takes over when it stops renewing.
   */
  acquireLease?(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Optional: gives a lease up (a server shutting down lets another take over at once). */
  releaseLease?(name: string, holder: string): Promise<void>;

  /** Releases resources (connections); the store is unusable afterwards. */
  close(): Promise<void>;
}
