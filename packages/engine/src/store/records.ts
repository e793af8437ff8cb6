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

/**
 * A cluster member as the Store keeps it: identity, what it reported, its inventories and its
 * state.
 */
export interface MemberRecord {
  /** Unique member name (LXD's `server_name`). */
  name: string;
  /** The member's LXD API address, as it joined. */
  url: string;
  /** Its CPU architecture, LXD's name (`x86_64`, `aarch64`, ...). */
  architecture: string;
  /** Free text. */
  description: string;
  /** LXD's `failure_domain`: members sharing one can fail together. */
  failureDomain: string;
  /** LXD cluster roles (informational to Berth). */
  roles: string[];
  /** Names of the cluster groups it belongs to. */
  groups: string[];
  /** LXD member config: `scheduler.instance`, `user.*`. */
  config: Record<string, string>;
  /** Placement traits it has (required or forbidden by flavors). */
  traits: string[];
  /** Set by an evacuation, cleared by a restore: evacuated members take no new instances. */
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
  /** ISO timestamp of its creation. */
  createdAt: string;
}

/**
 * A cluster group (LXD): a named set of members a target `@group` or a project restriction can
 * name.
 */
export interface GroupRecord {
  /** Unique group name. */
  name: string;
  /** Free text. */
  description: string;
}

/**
 * A project (LXD): its config holds limits (`limits.cpu`, `limits.instances`, ...) and
 * restrictions.
 */
export interface ProjectRecord {
  /** Unique project name. */
  name: string;
  /** Free text. */
  description: string;
  /** LXD project config (`limits.*`, `restricted.*`, `features.profiles`). */
  config: Record<string, string>;
}

/** A profile (LXD): config and devices an instance takes on by naming it. */
export interface ProfileRecord {
  /** The project it belongs to. */
  project: string;
  /** Name, unique within the project. */
  name: string;
  /** Free text. */
  description: string;
  /** Instance config keys it sets (`limits.cpu`, ...). */
  config: Record<string, string>;
  /** Devices it adds, by device name. */
  devices: Record<string, Record<string, string>>;
}

/** A flavor (Nova-style): a named size and extra specs an instance can ask for with `flavor`. */
export interface FlavorRecord {
  /** Unique flavor name. */
  name: string;
  /** Free text. */
  description: string;
  /** CPUs (`limits.cpu`). */
  vcpus: number;
  /** Memory in MiB (`limits.memory`). */
  memoryMb: number;
  /** Root disk size in GiB; 0 for none. */
  diskGb: number;
  /** Nova extra specs: `resources:CLASS=N`, `trait:NAME=required|forbidden`, ... */
  extraSpecs: Record<string, string>;
}

/**
 * An image (LXD): what an instance's `source` names; its architecture narrows where the instance
 * may go.
 */
export interface ImageRecord {
  /** Unique SHA-256 fingerprint (64 hex digits). */
  fingerprint: string;
  /** Free text. */
  description: string;
  /**
   * The architecture it runs on; empty when unknown (`images.default_architecture` then applies).
   */
  architecture: string;
  /** "container" | "virtual-machine" */
  type: string;
  /** Alias names pointing at it. */
  aliases: string[];
  /** LXD image properties (`os`, `release`, ...). */
  properties: Record<string, string>;
}

/**
 * A placement group: instances naming it (`placement.group`) are spread over members or packed
 * together.
 */
export interface PlacementGroupRecord {
  /** The project it belongs to. */
  project: string;
  /** Name, unique within the project. */
  name: string;
  /** Free text. */
  description: string;
  /** `spread` or `compact`. */
  policy: PlacementPolicy;
  /** `strict` (refuse when the policy cannot hold) or `permissive` (prefer). */
  rigor: PlacementRigor;
  /** The other config keys: `user.*` and `topology` (rules/writes/placement-group-config.ts). */
  config: Record<string, string>;
}

/** A custom resource class (`CUSTOM_*`) created through the API. */
export interface ResourceClassRecord {
  /** The class name. */
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
  /** The provider's uuid (Placement's identity). */
  uuid: string;
  /** Unique among providers (Placement's 409 `placement.duplicate_name`). */
  name: string;
  /** Its parent provider, or null for a root. */
  parentUuid: string | null;
  /** Its own uuid for a root. */
  rootUuid: string;
  /** Placement's provider generation: a write quoting an older one is refused (409). */
  generation: number;
  /** By resource class: @berth/resources' inventory, Placement's fields. */
  inventories: Record<string, Inventory>;
  /** Standard (os-traits) or CUSTOM_ trait names, sorted. */
  traits: string[];
  /** Aggregate uuids, in the order they were set. */
  aggregates: string[];
  /** ISO timestamp of its creation. */
  createdAt: string;
  /** ISO timestamp of its last change. */
  updatedAt: string;
}

/**
 * A Placement consumer (an instance, a migration, anything Nova claims
 * for) and its allocations on Placement providers. Its rows use
 * `AllocationRow` with the provider uuid in `member` and the "used" ledger,
 * so the claim rules check them as they check an instance's.
 */
export interface ConsumerRecord {
  /** The consumer's uuid (for an instance's rows on a child provider: the instance's id). */
  uuid: string;
  /** Placement's project id. */
  projectId: string;
  /** Placement's user id. */
  userId: string;
  /** Placement 1.38 consumer type (e.g. INSTANCE, MIGRATION); null: not given. */
  consumerType: string | null;
  /** Placement's consumer generation: bumped by every write of its allocations. */
  generation: number;
  /** Its allocations, provider uuid in `member`, all in the `used` ledger. */
  allocations: AllocationRow[];
  /** ISO timestamp of its creation. */
  createdAt: string;
  /** ISO timestamp of its last change. */
  updatedAt: string;
}

/** A custom (`CUSTOM_*`) trait; standard os-traits names are built in and never stored. */
export interface TraitRecord {
  /** The trait name (`CUSTOM_*`). */
  name: string;
  /** ISO timestamp of its creation. */
  createdAt: string;
}

/** Which ledger an allocation counts in: `used` is held by an instance, `forthcoming` by a reservation; both count against capacity. */
export type Ledger = "used" | "forthcoming";

/** What an instance holds of one class on one member (or child provider), in one ledger. */
export interface AllocationRow {
  /** The member (or a child provider's uuid) the amount is held on. */
  member: string;
  /** The resource class (`VCPU`, `MEMORY_MB`, `CUSTOM_*`, ...). */
  resourceClass: string;
  /** `used` for an instance, `forthcoming` for a reservation. */
  ledger: Ledger;
  /** Units held. */
  amount: number;
}

/** Amounts counted against LXD project limits (`limits.cpu/memory/disk`). */
export interface LimitsUsage {
  /** CPUs counted against `limits.cpu`. */
  cpu: number;
  /** Bytes counted against `limits.memory`. */
  memoryBytes: number;
  /** Bytes counted against `limits.disk`. */
  diskBytes: number;
}

/** LXD's two instance types. */
export type InstanceType = "container" | "virtual-machine";

/**
 * An instance (or a reservation) as the Store keeps it: where it is, what it holds, why it is
 * there.
 */
export interface InstanceRecord {
  /** UUID; the only mandatory attribute of a reservation. */
  id: string;
  /** The project it belongs to. */
  project: string;
  /** Name, unique within the project; empty for an unnamed reservation. */
  name: string;
  /** Container or virtual machine. */
  type: InstanceType;
  /** Member the instance lives on (reservations are placed too). */
  location: string;
  /**
   * The member holding a mirror of its storage (Ganeti's DRBD secondary),
   * absent for an instance on one member. Its storage counts on both
   * members, and the secondary keeps the memory free to take the instance
   * over if its location fails (rules/claims/mirrors.ts).
   */
  secondary?: string;
  /** True for a reservation (Ganeti forthcoming instance). */
  forthcoming: boolean;
  /** The architecture it needs. */
  architecture: string;
  /** Free text. */
  description: string;
  /** LXD's ephemeral flag (kept, not acted on). */
  ephemeral: boolean;
  /** Profiles applied, in order (their config and devices are expanded into the request). */
  profiles: string[];
  /** Its own config (before profiles are applied). */
  config: Record<string, string>;
  /** Its own devices (before profiles are applied). */
  devices: Record<string, Record<string, string>>;
  /** LXD instance type it was sized by (`c2-m4`), or null. */
  instanceType: string | null;
  /** Flavor it was sized by, or null. */
  flavor: string | null;
  /** LXD's `source` (image, alias) as given, or null. */
  source: Record<string, unknown> | null;
  /** Placement group name (from config `placement.group`), or null. */
  placementGroup: string | null;
  /** Member an evacuated instance came from (restore moves it back), or null. */
  origin: string | null;
  /** ISO timestamp of its creation. */
  createdAt: string;
  /** Every amount it holds, per member, class and ledger. */
  allocations: AllocationRow[];
  /** What it counts against its project's limits. */
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
  /** How many members were turned down for it. */
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
  /** Why a placement was made (a create, an evacuation, ...). */
  reason: DecisionReason;
  /** Who chose the member. */
  decidedBy: DecisionMaker;
  /** The member chosen. */
  member: string;
  /** The target the caller gave (`member` or `@group`), or null. */
  target: string | null;
  /** The placement group whose policy ordered (strict: filtered) the candidates, or null. */
  placementGroup: {
    /** The placement group's name. */
    name: string;
    /** How it orders its members: spread them apart or pack them together. */
    policy: PlacementPolicy;
    /** Strict (a member it rules out is never used) or permissive (only a preference). */
    rigor: PlacementRigor;
  } | null;
  /** Members in the cluster when it was decided. */
  members: number;
  /**
   * Members that passed every filter, and the first of them in the order
   * the decision saw them (the default policy picks the first without
   * ordering the others, so then only the chosen one). Null when no
   * candidate search ran (an explicit member target, rebalance, restore).
   */
  candidates: {
    /** How many members passed every filter. */
    count: number;
    /** The first of them, in the order the decision saw them (capped). */
    leading: string[];
  } | null;
  /** Every other member, grouped by the first reason it was turned down for, most frequent first. */
  rejections: RejectionGroup[];
  /** What the scriptlet logged (`log_info`/`log_warn`/`log_error`), the first lines. */
  log: {
    /** `log_info`, `log_warn`, `log_error` (`print()` logs at info). */
    level: "info" | "warn" | "error";
    /** The logged text, without LXD's `Instance placement scriptlet: ` prefix. */
    message: string;
  }[];
  /** Log lines beyond those kept. */
  logDropped: number;
  /** What the scriptlet run cost, or null when none ran. */
  scriptlet: {
    /** Starlark steps the run took (one per loop iteration and per call). */
    steps: number;
    /** Wall time of the run, in milliseconds. */
    ms: number;
  } | null;
}

/** The server config (LXD's `GET /1.0` config) with its version. */
export interface ConfigRecord {
  /** Bumped on every change; other processes re-read config when it moves. */
  version: number;
  /** Every key set, as strings (defaults are not stored). */
  values: Record<string, string>;
}
