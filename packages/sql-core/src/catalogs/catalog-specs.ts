import {
  checkProviderWrite,
  type FlavorRecord,
  type GroupRecord,
  groupInUse,
  type ImageRecord,
  type PlacementGroupRecord,
  type ProfileRecord,
  type ProjectRecord,
  type ProviderRecord,
  placementGroupInUse,
  profileInUse,
  projectInUse,
  providerInUse,
  type RecordKey,
  type ResourceClassRecord,
  requireProject,
  resourceClassInUse,
  type TraitRecord,
  traitInUse,
} from "@berth/engine";
import { jsonSql } from "../runner/json-sql.js";
import { rowLock } from "../runner/row-locks.js";
import { first, type SqlParam, type SqlRunner } from "../runner/runner.js";
import type { TableSpec } from "../schema/table-spec.js";
import * as tables from "../schema/tables.js";
import type { CatalogSpec } from "./catalog-rows.js";
import { foundTraits } from "./found-traits.js";

/** The record type of each catalog table of the engine's Store port. */
export interface CatalogRecords {
  groups: GroupRecord;
  projects: ProjectRecord;
  profiles: ProfileRecord;
  flavors: FlavorRecord;
  images: ImageRecord;
  placementGroups: PlacementGroupRecord;
  resourceClasses: ResourceClassRecord;
  providers: ProviderRecord;
  traits: TraitRecord;
}

async function count(db: SqlRunner, text: string, params: SqlParam[]): Promise<number> {
  return Number((await first(db, `SELECT count(*) AS n FROM ${text}`, params))?.n ?? 0);
}

async function exists(db: SqlRunner, text: string, params: SqlParam[]): Promise<boolean> {
  return (await first(db, `SELECT 1 AS one FROM ${text} LIMIT 1`, params)) !== undefined;
}

/** Share-locks a referenced row so it cannot go before the writer commits (`rowLock`). */
const keyShare = (db: SqlRunner) => rowLock(db, "FOR KEY SHARE");

/** The engine's rule: a project-scoped record's project exists. */
async function projectMustExist(db: SqlRunner, project: string): Promise<void> {
  requireProject(
    project,
    (await first(db, `SELECT 1 AS one FROM projects WHERE name = ?${keyShare(db)}`, [project])) !== undefined,
  );
}

function projectOf(key: RecordKey): string {
  return key.project ?? "default";
}

/**
 * A catalog table's spec: named in the feed as in the Store port, its
 * records keyed by the column `nameKey` ("name" unless said) and, for
 * project-scoped tables, `projectKey`.
 */
function spec<K extends keyof CatalogRecords>(
  feedName: K,
  table: TableSpec,
  own: Partial<CatalogSpec<CatalogRecords[K]>> = {},
): CatalogSpec<CatalogRecords[K]> {
  const { nameKey = "name", projectKey } = own;
  const keyOf = (record: CatalogRecords[K]): RecordKey => {
    const values = record as unknown as Record<string, string>;
    return projectKey === undefined
      ? { name: values[nameKey]! }
      : { project: values[projectKey]!, name: values[nameKey]! };
  };
  return { feedName, table, nameKey, keyOf, ...own };
}

/** Every catalog table: its rows, and the statements its rules read. */
export const catalogSpecs: { [K in keyof CatalogRecords]: CatalogSpec<CatalogRecords[K]> } = {
  groups: spec("groups", tables.groups, {
    inUse: async (db, key) => groupInUse(await count(db, "member_groups WHERE group_name = ?", [key.name])),
  }),
  projects: spec("projects", tables.projects, {
    inUse: async (db, key) => {
      // The maintained counters (PostgreSQL's shards summed) answer without scanning instances.
      const counter = await first(
        db,
        "SELECT coalesce(sum(instances), 0) AS n FROM project_usage WHERE project = ?",
        [key.name],
      );
      return projectInUse({
        instances: Number(counter?.n ?? 0),
        hasProfiles: await exists(db, "profiles WHERE project = ?", [key.name]),
        hasPlacementGroups: await exists(db, "placement_groups WHERE project = ?", [key.name]),
      });
    },
  }),
  profiles: spec("profiles", tables.profiles, {
    projectKey: "project",
    validate: (db, p) => projectMustExist(db, p.project),
    inUse: async (db, key) =>
      profileInUse(
        await count(db, "instance_profiles WHERE project = ? AND profile = ?", [projectOf(key), key.name]),
      ),
  }),
  flavors: spec("flavors", tables.flavors),
  images: spec("images", tables.images, { nameKey: "fingerprint" }),
  placementGroups: spec("placementGroups", tables.placementGroups, {
    projectKey: "project",
    validate: (db, p) => projectMustExist(db, p.project),
    inUse: async (db, key) =>
      placementGroupInUse(
        await count(db, "instances WHERE project = ? AND placement_group = ?", [projectOf(key), key.name]),
      ),
  }),
  resourceClasses: spec("resourceClasses", tables.resourceClasses, {
    toRow: (r) => ({ name: r.name }),
    fromRow: (row) => ({ name: String(row.name), custom: true }),
    inUse: async (db, key) => {
      // `->` with a text key: the class names are plain words, so SQLite's path reading of it is the key.
      const provider = await first(
        db,
        "SELECT uuid FROM providers WHERE (inventories -> CAST(? AS text)) IS NOT NULL LIMIT 1",
        [key.name],
      );
      return resourceClassInUse({
        memberInventory: await exists(db, "inventories WHERE resource_class = ?", [key.name]),
        providerInventory: provider === undefined ? undefined : String(provider.uuid),
        allocated: await exists(db, "usage WHERE resource_class = ? AND amount > 0", [key.name]),
      });
    },
  }),
  providers: spec("providers", tables.providers, {
    nameKey: "uuid",
    validate: async (db, p) => {
      const held = await db.all(
        "SELECT DISTINCT resource_class FROM consumer_allocations WHERE provider_uuid = ?",
        [p.uuid],
      );
      const parent =
        p.parentUuid === null
          ? undefined
          : await first(db, `SELECT 1 AS one FROM providers WHERE uuid = ?${keyShare(db)}`, [p.parentUuid]);
      checkProviderWrite(p, {
        heldClasses: held.map((row) => String(row.resource_class)),
        nameTaken: await exists(db, "providers WHERE name = ? AND uuid <> ?", [p.name, p.uuid]),
        parentExists: parent !== undefined,
        foundTraits: await foundTraits(db, p.traits),
      });
    },
    inUse: async (db, key) =>
      providerInUse({
        children: await count(db, "providers WHERE parent_uuid = ?", [key.name]),
        allocated: await exists(db, "consumer_allocations WHERE provider_uuid = ?", [key.name]),
      }),
  }),
  traits: spec("traits", tables.traits, {
    inUse: async (db, key) => {
      const holder = await first(
        db,
        `SELECT uuid FROM providers WHERE EXISTS (SELECT 1 FROM ${jsonSql(db).elements("traits")} WHERE value = ?) LIMIT 1`,
        [key.name],
      );
      // PostgreSQL: member writes insert member_traits without touching this trait's row; the
      // share lock waits for those in flight and holds off new ones until the delete ends
      // (SQLite's write transaction already excludes every other writer).
      if (db.dialect === "pg") await db.run("LOCK TABLE member_traits IN SHARE MODE");
      const member = await first(
        db,
        "SELECT m.name FROM member_traits t JOIN members m ON m.id = t.member_id WHERE t.trait = ? LIMIT 1",
        [key.name],
      );
      return traitInUse({
        provider: holder === undefined ? undefined : String(holder.uuid),
        member: member === undefined ? undefined : String(member.name),
      });
    },
  }),
};
