import { PLACEMENT_POLICIES, PLACEMENT_RIGORS } from "@berth/api-types";
import type { PlacementDecisionRecord } from "@berth/engine";
import type { Inventory } from "@berth/resources";
import { sql } from "drizzle-orm";
import { type AnyColumnSpec, column as c } from "./column-spec.js";
import { table } from "./table-spec.js";

/*
 * The tables both SQL stores share, described once. Each adapter builds its
 * drizzle schema from this module's exports, which are table specs and nothing
 * else (`sqliteTables(sharedTableSpecs)`, `pgTables(...)`), and drizzle-kit
 * generates each dialect's migrations from that. What only one dialect has
 * (the change feed and leases, PostgreSQL's sharded project counters and
 * its instance sequence) stays in that adapter's schema.
 */

type Strings = Record<string, string>;

/**
 * Cluster members. The integer id is the join order (neither AUTOINCREMENT
 * nor a sequence hands out a number twice, so a re-joined member goes last)
 * and the key every per-member row refers to, so renames never touch
 * instance rows.
 */
export const members = table("members", {
  id: c.serial("id"),
  name: c.text("name").notNull().unique(),
  url: c.text("url").notNull(),
  architecture: c.text("architecture").notNull(),
  description: c.text("description").notNull().default(""),
  failureDomain: c.text("failure_domain").notNull().default("default"),
  roles: c.json<string[]>("roles").notNull(),
  config: c.json<Strings>("config").notNull(),
  evacuated: c.bool("evacuated").notNull().default(false),
  lastHeartbeat: c.text("last_heartbeat"),
  state: c.json<Record<string, unknown>>("state"),
  resources: c.json<Record<string, unknown>>("resources"),
  /** Placement's resource provider generation: bumped on inventory/trait edits. */
  generation: c.int("generation").notNull().default(0),
  createdAt: c.text("created_at").notNull(),
});

const memberId = (name: string, onDelete: "cascade" | "restrict") =>
  c
    .int53(name)
    .notNull()
    .references(() => members.columns.id, { onDelete });

export const groups = table("groups", {
  name: c.text("name").primaryKey(),
  description: c.text("description").notNull().default(""),
});

export const memberGroups = table(
  "member_groups",
  {
    memberId: memberId("member_id", "cascade"),
    // RESTRICT: a group cannot go while a member is in it.
    group: c
      .text("group_name")
      .notNull()
      .references(() => groups.columns.name, { onDelete: "restrict", onUpdate: "cascade" }),
    position: c.int("position").notNull(),
  },
  { primaryKey: ["memberId", "group"], indexes: [{ name: "member_groups_by_group", on: ["group"] }] },
);

export const memberTraits = table(
  "member_traits",
  { memberId: memberId("member_id", "cascade"), trait: c.text("trait").notNull() },
  { primaryKey: ["memberId", "trait"] },
);

/** Custom resource classes (standard ones are built into @berth/resources). */
export const resourceClasses = table("resource_classes", { name: c.text("name").primaryKey() });

export const inventories = table(
  "inventories",
  {
    memberId: memberId("member_id", "cascade"),
    resourceClass: c.text("resource_class").notNull(),
    total: c.int53("total").notNull(),
    reserved: c.int53("reserved").notNull().default(0),
    minUnit: c.int53("min_unit").notNull().default(1),
    maxUnit: c.int53("max_unit").notNull().default(2147483647),
    stepSize: c.int53("step_size").notNull().default(1),
    allocationRatio: c.real("allocation_ratio").notNull().default(1),
    source: c.enum("source", ["explicit", "derived"]).notNull(),
    /**
     * Usage (both ledgers) this inventory was set below, or 0. Shrinking an
     * inventory under its usage is allowed and claims never grow past
     * capacity, so usage may exceed capacity only up to this mark: check()
     * tells a legitimate shrink from an overcommit with it.
     */
    grandfatheredUsage: c.int53("grandfathered_usage").notNull().default(0),
  },
  {
    primaryKey: ["memberId", "resourceClass"],
    // Deleting a custom class asks "does any inventory use it?".
    indexes: [{ name: "inventories_by_class", on: ["resourceClass"] }],
  },
);

export const projects = table("projects", {
  name: c.text("name").primaryKey(),
  description: c.text("description").notNull().default(""),
  config: c.json<Strings>("config").notNull(),
});

const projectRef = (onDelete: "cascade" | "restrict") =>
  c
    .text("project")
    .notNull()
    .references(() => projects.columns.name, { onDelete });

export const profiles = table(
  "profiles",
  {
    // RESTRICT: a project cannot go while it still has profiles.
    project: projectRef("restrict"),
    name: c.text("name").notNull(),
    description: c.text("description").notNull().default(""),
    config: c.json<Strings>("config").notNull(),
    devices: c.json<Record<string, Strings>>("devices").notNull(),
  },
  { primaryKey: ["project", "name"] },
);

export const placementGroups = table(
  "placement_groups",
  {
    project: projectRef("restrict"),
    name: c.text("name").notNull(),
    description: c.text("description").notNull().default(""),
    policy: c.enum("policy", PLACEMENT_POLICIES).notNull(),
    rigor: c.enum("rigor", PLACEMENT_RIGORS).notNull(),
    /** The other config keys (`user.*`, `topology`); `policy` and `rigor` are the columns above. */
    config: c.json<Strings>("config").notNull().default({}),
  },
  { primaryKey: ["project", "name"] },
);

export const flavors = table("flavors", {
  name: c.text("name").primaryKey(),
  description: c.text("description").notNull().default(""),
  vcpus: c.int("vcpus").notNull(),
  memoryMb: c.int53("memory_mb").notNull(),
  diskGb: c.int53("disk_gb").notNull(),
  extraSpecs: c.json<Strings>("extra_specs").notNull(),
});

export const images = table("images", {
  fingerprint: c.text("fingerprint").primaryKey(),
  description: c.text("description").notNull().default(""),
  architecture: c.text("architecture").notNull(),
  type: c.text("type").notNull(),
  aliases: c.json<string[]>("aliases").notNull(),
  properties: c.json<Strings>("properties").notNull(),
});

/** Server configuration: a single row, its version bumped on every change. */
export const serverConfig = table("server_config", {
  id: c.int("id").primaryKey(),
  version: c.int("version").notNull(),
  values: c.json<Strings>("values").notNull(),
});

export const instances = table(
  "instances",
  {
    id: c.text("id").primaryKey(),
    // RESTRICT: a project cannot go while it holds instances.
    project: projectRef("restrict"),
    name: c.text("name").notNull(),
    type: c.enum("type", ["container", "virtual-machine"]).notNull(),
    // RESTRICT: a member cannot go while it hosts instances or reservations.
    memberId: memberId("member_id", "restrict"),
    forthcoming: c.bool("forthcoming").notNull(),
    // The member mirroring its storage (DRBD secondary), NULL for a
    // single-member instance. RESTRICT: that member cannot go while it does.
    secondaryId: c.int53("secondary_id").references(() => members.columns.id, { onDelete: "restrict" }),
    architecture: c.text("architecture").notNull(),
    description: c.text("description").notNull().default(""),
    ephemeral: c.bool("ephemeral").notNull().default(false),
    profiles: c.json<string[]>("profiles").notNull(),
    config: c.json<Strings>("config").notNull(),
    devices: c.json<Record<string, Strings>>("devices").notNull(),
    instanceType: c.text("instance_type"),
    flavor: c.text("flavor"),
    source: c.json<Record<string, unknown>>("source"),
    placementGroup: c.text("placement_group"),
    origin: c.text("origin"),
    createdAt: c.text("created_at").notNull(),
    limitsCpu: c.int53("limits_cpu").notNull().default(0),
    limitsMemoryBytes: c.int53("limits_memory_bytes").notNull().default(0),
    limitsDiskBytes: c.int53("limits_disk_bytes").notNull().default(0),
    // The decision record: why the instance is on its member. NULL for rows
    // written before it was kept.
    decision: c.json<PlacementDecisionRecord>("decision"),
    revision: c.int("revision").notNull(),
  },
  {
    pgColumns: {
      /**
       * Listing order: claim order, as SQLite's rowid gives it. Drawn from a
       * sequence at insert (the adapter declares `instances_seq`), so
       * instances of one claim keep their order.
       */
      seq: c.int53("seq").notNull().default(sql`nextval('instances_seq')`),
    },
    indexes: [
      // Unique names per project (LXD rule); also the getInstance(project, name)
      // lookup. Unnamed reservations (name "") are addressed by id and exempt;
      // queries repeat the `name <> ''` term so SQLite can use this index.
      {
        name: "instances_by_project_name",
        on: ["project", "name"],
        unique: true,
        where: (t) => sql`${t.name} <> ''`,
      },
      // listInstances({ project }) (API listings, scriptlet get_instances(project=...)).
      { name: "instances_by_project", on: ["project"], only: "sqlite" },
      { name: "instances_by_project", on: ["project", "seq"], only: "pg" },
      // Covers the hydration counts per (member, project) and listInstances({ location }).
      { name: "instances_by_member", on: ["memberId", "project", "forthcoming", "type"] },
      // listInstances({ secondary }) and the N+1 read of a member's mirrored memory.
      {
        name: "instances_by_secondary",
        on: ["secondaryId"],
        where: (t) => sql`${t.secondaryId} IS NOT NULL`,
      },
      // Placement group membership counts and the "group in use" check.
      {
        name: "instances_by_placement_group",
        on: ["project", "placementGroup", "memberId"],
        where: (t) => sql`${t.placementGroup} IS NOT NULL`,
      },
      { name: "instances_by_seq", on: ["seq"], only: "pg" },
    ],
  },
);

const instanceRef = () =>
  c
    .text("instance_id")
    .notNull()
    .references(() => instances.columns.id, { onDelete: "cascade" });

/**
 * Which profiles each instance uses: answers "is this profile in use?"
 * without scanning JSON. In SQLite a WITHOUT ROWID table (migration 0006;
 * drizzle cannot declare it, so a drizzle-kit generated rebuild of this
 * table must keep the clause).
 */
export const instanceProfiles = table(
  "instance_profiles",
  { instanceId: instanceRef(), project: c.text("project").notNull(), profile: c.text("profile").notNull() },
  {
    primaryKey: ["instanceId", "profile"],
    indexes: [{ name: "instance_profiles_by_profile", on: ["project", "profile"] }],
  },
);

const ledger = () => c.enum("ledger", ["used", "forthcoming"]).notNull();

/**
 * Each instance's allocations, in the order of its list (`position`: rows
 * that predate it carry their old SQLite rowid, same order). In SQLite a
 * WITHOUT ROWID table (see instance_profiles): one B-tree insert fewer per
 * row (a bulk claim of 10,000 instances writes 20,000).
 */
export const allocations = table(
  "allocations",
  {
    instanceId: instanceRef(),
    memberId: memberId("member_id", "restrict"),
    resourceClass: c.text("resource_class").notNull(),
    ledger: ledger(),
    amount: c.int53("amount").notNull(),
    position: c.int("position").notNull().default(0),
  },
  {
    primaryKey: ["instanceId", "memberId", "resourceClass", "ledger"],
    // "Does this member hold allocations?" (member removal, the foreign key's RESTRICT). On the member
    // alone, an instance's rows (one per class) share a leaf; keyed by class too, each took its own.
    indexes: [{ name: "allocations_by_member", on: ["memberId"] }],
  },
);

/**
 * Per-member usage per class per ledger: the sums of `allocations`, kept in
 * the same transaction, so a capacity check reads one row per class.
 */
export const usage = table(
  "usage",
  {
    memberId: memberId("member_id", "cascade"),
    resourceClass: c.text("resource_class").notNull(),
    ledger: ledger(),
    amount: c.int53("amount").notNull(),
  },
  { primaryKey: ["memberId", "resourceClass", "ledger"] },
);

/**
 * Placement resource providers (engine `ProviderRecord`). Inventories,
 * traits and aggregates are JSON on the row: a provider's generation guards
 * them together, so they are always written together.
 */
export const providers = table(
  "providers",
  {
    uuid: c.text("uuid").primaryKey(),
    name: c.text("name").notNull().unique(),
    // RESTRICT: a provider cannot go while it has children.
    parentUuid: c
      .text("parent_uuid")
      .references((): AnyColumnSpec => providers.columns.uuid, { onDelete: "restrict" }),
    rootUuid: c.text("root_uuid").notNull(),
    generation: c.int("generation").notNull(),
    inventories: c.json<Record<string, Inventory>>("inventories").notNull(),
    traits: c.json<string[]>("traits").notNull(),
    aggregates: c.json<string[]>("aggregates").notNull(),
    createdAt: c.text("created_at").notNull(),
    updatedAt: c.text("updated_at").notNull(),
  },
  { indexes: [{ name: "providers_by_parent", on: ["parentUuid"] }] },
);

/** Custom traits (standard os-traits names are built in). */
export const traits = table("traits", {
  name: c.text("name").primaryKey(),
  createdAt: c.text("created_at").notNull(),
});

/** Placement consumers (engine `ConsumerRecord`, without its rows). */
export const consumers = table(
  "consumers",
  {
    uuid: c.text("uuid").primaryKey(),
    projectId: c.text("project_id").notNull(),
    userId: c.text("user_id").notNull(),
    consumerType: c.text("consumer_type"),
    generation: c.int("generation").notNull(),
    createdAt: c.text("created_at").notNull(),
    updatedAt: c.text("updated_at").notNull(),
  },
  { indexes: [{ name: "consumers_by_project_user", on: ["projectId", "userId"] }] },
);

/** A consumer's allocation rows; summed per provider and class for usage and capacity. */
export const consumerAllocations = table(
  "consumer_allocations",
  {
    consumerUuid: c
      .text("consumer_uuid")
      .notNull()
      .references(() => consumers.columns.uuid, { onDelete: "cascade" }),
    // RESTRICT: a provider with allocations cannot go.
    providerUuid: c
      .text("provider_uuid")
      .notNull()
      .references(() => providers.columns.uuid, { onDelete: "restrict" }),
    resourceClass: c.text("resource_class").notNull(),
    amount: c.int53("amount").notNull(),
    position: c.int("position").notNull(),
  },
  {
    primaryKey: ["consumerUuid", "providerUuid", "resourceClass"],
    indexes: [{ name: "consumer_allocations_by_provider", on: ["providerUuid", "resourceClass"] }],
  },
);

/**
 * berthd's API tokens: only the SHA-256 of each secret is kept. In the
 * database rather than beside it, so every server sharing the store knows
 * the same tokens, and revocation reaches all of them at once.
 */
export const apiTokens = table("api_tokens", {
  id: c.text("id").primaryKey(),
  name: c.text("name").notNull().unique(),
  description: c.text("description"),
  /** Hex SHA-256 of the secret; looked up on every authenticated request. */
  hash: c.text("hash").notNull().unique(),
  admin: c.bool("admin").notNull(),
  /** Projects a restricted token may use; empty for admin tokens. */
  projects: c.json<string[]>("projects").notNull(),
  createdAt: c.text("created_at").notNull(),
});

/**
 * berthd's trust store, the LXD way: the TLS client certificates it trusts
 * (public certificates, keyed by LXD's fingerprint, hex SHA-256 of the DER).
 */
export const trustedCertificates = table("trusted_certificates", {
  fingerprint: c.text("fingerprint").primaryKey(),
  name: c.text("name").notNull(),
  type: c.text("type").notNull(),
  restricted: c.bool("restricted").notNull(),
  /** Projects a restricted certificate may use; empty otherwise. */
  projects: c.json<string[]>("projects").notNull(),
  /** PEM. */
  certificate: c.text("certificate").notNull(),
  createdAt: c.text("created_at").notNull(),
});

/**
 * Pending certificate-add tokens (`lxc config trust add`). The id is the
 * token's LXD operation id. Only the secret's hash is kept (hex SHA-256, as
 * for API tokens): a copy of the database holds nothing a client could
 * redeem. A token is single-use and expires (`expires_at`).
 */
export const trustTokens = table("trust_tokens", {
  id: c.text("id").primaryKey(),
  name: c.text("name").notNull(),
  secretHash: c.text("secret_hash").notNull().unique(),
  restricted: c.bool("restricted").notNull(),
  projects: c.json<string[]>("projects").notNull(),
  createdAt: c.text("created_at").notNull(),
  expiresAt: c.text("expires_at").notNull(),
});
