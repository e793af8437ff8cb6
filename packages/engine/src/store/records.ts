/**
 * The records the Store persists. They are the engine's domain types, close to
 * the LXD/Incus wire shapes but camelCase-free where a field is a plain map
 * (config/devices keep LXD keys). Every record is a plain, JSON-serialisable
 * object so any Store can keep it in a row or a document.
 */
import type { PlacementPolicy, PlacementRigor } from "@berth/api-types";
import type { Inventory } from "@berth/resources";

/** The placement-group value lists live with the wire schema (`PLACEMENT_POLICIES`). */
export type { PlacementPolicy, PlacementRigor };

/**
 * One inventory of one resource class on one member: @berth/resources'
 * `Inventory` (OpenStack Placement's fields, the one domain shape; the
 * snake_case names are the wire's) plus where it came from.
 */
export interface InventoryRecord extends Inventory {
  /**
   * "explicit" inventories were set by an operator and always win; "derived"
   * ones were computed by the engine from the member's reported resources
   * and are rewritten when those change.
   */
  source: "explicit" | "derived";
}

export interface MemberRecord {
  name: string;
  url: string;
  architecture: string;
  description: string;
  failureDomain: string;
  roles: string[];
  groups: string[];
  /** LXD member config: `scheduler.instance`, `user.*`. */
  config: Record<string, string>;
  traits: string[];
  evacuated: boolean;
  /** ISO timestamp of the last heartbeat, or null if never seen. */
  lastHeartbeat: string | null;
  /** Reported LXD `ClusterMemberState` (plain JSON), if any. */
  state: Record<string, unknown> | null;
  /** Reported LXD `Resources` (plain JSON), if any. */
  resources: Record<string, unknown> | null;
  /** Effective inventories keyed by resource class. */
  inventories: Record<string, InventoryRecord>;
  /**
   * Optimistic-concurrency counter (Placement's resource provider generation):
   * bumped by the store whenever inventories or traits change.
   */
  generation: number;
  /** Monotonic join order assigned by the store on create; breaks placement ties. */
  joinOrder: number;
  createdAt: string;
}

export interface GroupRecord {
  name: string;
  description: string;
}

export interface ProjectRecord {
  name: string;
  description: string;
  config: Record<string, string>;
}

export interface ProfileRecord {
  project: string;
  name: string;
  description: string;
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
}

export interface FlavorRecord {
  name: string;
  description: string;
  vcpus: number;
  memoryMb: number;
  diskGb: number;
  extraSpecs: Record<string, string>;
}

export interface ImageRecord {
  fingerprint: string;
  description: string;
  architecture: string;
  /** "container" | "virtual-machine" */
  type: string;
  aliases: string[];
  properties: Record<string, string>;
}

export interface PlacementGroupRecord {
  project: string;
  name: string;
  description: string;
  policy: PlacementPolicy;
  rigor: PlacementRigor;
  /** The other config keys: `user.*` and `topology` (rules/writes/placement-group-config.ts). */
  config: Record<string, string>;
}

export interface ResourceClassRecord {
  name: string;
  /** Standard classes are built in and never stored; the store keeps custom ones. */
  custom: true;
}

/**
 * An OpenStack Placement resource provider created through the Placement
 * API: a root (`parentUuid` null) or a child of another provider (NUMA
 * node, GPU, FPGA, SR-IOV device), keyed by uuid. Inventories, traits and
 * aggregates live on the row; `generation` is Placement's optimistic
 * concurrency counter, bumped by the engine on every change of them.
 */
export interface ProviderRecord {
  uuid: string;
  /** Unique among providers (Placement's 409 `placement.duplicate_name`). */
  name: string;
  parentUuid: string | null;
  /** Its own uuid for a root. */
  rootUuid: string;
  generation: number;
  /** By resource class: @berth/resources' inventory, Placement's fields. */
  inventories: Record<string, Inventory>;
  /** Standard (os-traits) or CUSTOM_ trait names, sorted. */
  traits: string[];
  /** Aggregate uuids, in the order they were set. */
  aggregates: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A Placement consumer (an instance, a migration, anything Nova claims
 * for) and its allocations on Placement providers. Its rows use
 * `AllocationRow` with the provider uuid in `member` and the "used" ledger,
 * so the claim rules check them as they check an instance's.
 */
export interface ConsumerRecord {
  uuid: string;
  projectId: string;
  userId: string;
  /** Placement 1.38 consumer type (e.g. INSTANCE, MIGRATION); null: not given. */
  consumerType: string | null;
  /** Placement's consumer generation: bumped by every write of its allocations. */
  generation: number;
  allocations: AllocationRow[];
  createdAt: string;
  updatedAt: string;
}

/** A custom (`CUSTOM_*`) trait; standard os-traits names are built in and never stored. */
export interface TraitRecord {
  name: string;
  createdAt: string;
}

/** Which ledger an allocation counts in: `used` is held by an instance, `forthcoming` by a reservation; both count against capacity. */
export type Ledger = "used" | "forthcoming";

export interface AllocationRow {
  member: string;
  resourceClass: string;
  ledger: Ledger;
  amount: number;
}

/** Amounts counted against LXD project limits (`limits.cpu/memory/disk`). */
export interface LimitsUsage {
  cpu: number;
  memoryBytes: number;
  diskBytes: number;
}

export type InstanceType = "container" | "virtual-machine";

export interface InstanceRecord {
  /** UUID; the only mandatory attribute of a reservation. */
  id: string;
  project: string;
  name: string;
  type: InstanceType;
  /** Member the instance lives on (reservations are placed too). */
  location: string;
  /**
   * The member holding a mirror of its storage (Ganeti's DRBD secondary),
   * absent for an instance on one member. Its storage counts on both
   * members, and the secondary keeps the memory free to take the instance
   * over if its location fails (claim-rules/mirrors.ts).
   */
  secondary?: string;
  /** True for a reservation (Ganeti forthcoming instance). */
  forthcoming: boolean;
  architecture: string;
  description: string;
  ephemeral: boolean;
  profiles: string[];
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
  instanceType: string | null;
  flavor: string | null;
  source: Record<string, unknown> | null;
  /** Placement group name (from config `placement.group`), or null. */
  placementGroup: string | null;
  /** Member an evacuated instance came from (restore moves it back), or null. */
  origin: string | null;
  createdAt: string;
  allocations: AllocationRow[];
  limitsUsage: LimitsUsage;
  /**
   * Why the instance is where it is: the last placement decision that put
   * it there (create, evacuation, move, rebalance, restore). Null for
   * records written straight through the Store port and for instances
   * stored before decisions were recorded.
   */
  decision: PlacementDecisionRecord | null;
  /** Optimistic-concurrency counter, assigned and bumped by the store. */
  revision: number;
}

/** What put an instance on its member: the scriptlet's reasons, and `restore` (back where it was evacuated from). */
export type DecisionReason = "new" | "evacuation" | "relocation" | "rebalance" | "restore";

/**
 * Who chose the member: an explicit `?target=member`, the scriptlet's
 * `set_target`, the default policy (first candidate: fewest instances,
 * ties in join order, reordered by a placement group), the rebalancer's
 * plan, or a restore (the member the instance was evacuated from).
 */
export type DecisionMaker = "target" | "scriptlet" | "default" | "rebalance" | "restore";

/** Members turned down for one reason: how many, the text, and the first few by name. */
export interface RejectionGroup {
  /** Groups identical reasons (e.g. "capacity:MEMORY_MB", "offline"). */
  code: string;
  count: number;
  /** "3 members have too little MEMORY_MB". */
  text: string;
  /** The first members turned down for it (at most `REJECTION_SAMPLE`, decision/record.ts). */
  members: string[];
  /** Turned down for resources (capacity, inventory), not for policy. */
  capacity: boolean;
}

/**
 * The decision record: a compact, durable answer to "why did this
 * instance land there?". Bounded whatever the cluster size: candidate
 * names, rejected members per reason and scriptlet log lines are capped
 * (decision/record.ts), so a million instances stay within the memory and
 * start-up bars. Immutable: built frozen by the engine, shared by stores.
 */
export interface PlacementDecisionRecord {
  /** ISO timestamp of the decision. */
  at: string;
  reason: DecisionReason;
  decidedBy: DecisionMaker;
  /** The member chosen. */
  member: string;
  /** The target the caller gave (`member` or `@group`), or null. */
  target: string | null;
  /** The placement group whose policy ordered (strict: filtered) the candidates, or null. */
  placementGroup: { name: string; policy: PlacementPolicy; rigor: PlacementRigor } | null;
  /** Members in the cluster when it was decided. */
  members: number;
  /**
   * Members that passed every filter, and the first of them in the order
   * the decision saw them (the default policy picks the first without
   * ordering the others, so then only the chosen one). Null when no
   * candidate search ran (an explicit member target, rebalance, restore).
   */
  candidates: { count: number; leading: string[] } | null;
  /** Every other member, grouped by the first reason it was turned down for, most frequent first. */
  rejections: RejectionGroup[];
  /** What the scriptlet logged (`log_info`/`log_warn`/`log_error`), the first lines. */
  log: { level: "info" | "warn" | "error"; message: string }[];
  /** Log lines beyond those kept. */
  logDropped: number;
  /** What the scriptlet run cost, or null when none ran. */
  scriptlet: { steps: number; ms: number } | null;
}

export interface ConfigRecord {
  /** Bumped on every change; other processes re-read config when it moves. */
  version: number;
  values: Record<string, string>;
}
