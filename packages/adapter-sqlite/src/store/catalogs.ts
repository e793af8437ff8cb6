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
import { and, eq, gt, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Connection, Database } from "../connection/open-connection.js";
import {
  consumerAllocations,
  flavors,
  groups,
  images,
  instanceProfiles,
  instances,
  inventories,
  memberGroups,
  members,
  memberTraits,
  placementGroups,
  profiles,
  projects,
  projectUsage,
  providers,
  resourceClasses,
  traits,
  usage,
} from "../schema/index.js";
import { SqliteCatalogTable } from "./catalog-table.js";

async function countWhere(db: Database, table: SQLiteTable, where: ReturnType<typeof and>): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(table).where(where);
  return row?.n ?? 0;
}

async function exists(db: Database, table: SQLiteTable, where: ReturnType<typeof and>): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(table).where(where).limit(1);
  return row !== undefined;
}

/** The engine's rule: a project-scoped record's project exists. */
async function projectMustExist(db: Database, project: string): Promise<void> {
  requireProject(project, await exists(db, projects, eq(projects.name, project)));
}

export interface Catalogs {
  groups: SqliteCatalogTable<GroupRecord>;
  projects: SqliteCatalogTable<ProjectRecord>;
  profiles: SqliteCatalogTable<ProfileRecord>;
  flavors: SqliteCatalogTable<FlavorRecord>;
  images: SqliteCatalogTable<ImageRecord>;
  placementGroups: SqliteCatalogTable<PlacementGroupRecord>;
  resourceClasses: SqliteCatalogTable<ResourceClassRecord>;
  providers: SqliteCatalogTable<ProviderRecord>;
  traits: SqliteCatalogTable<TraitRecord>;
}

export function createCatalogs(connection: Connection): Catalogs {
  return {
    groups: new SqliteCatalogTable<GroupRecord>(connection, {
      feedName: "groups",
      table: groups,
      nameColumn: groups.name,
      keyOf: (g) => ({ name: g.name }),
      inUse: async (db, key) =>
        groupInUse(await countWhere(db, memberGroups, eq(memberGroups.group, key.name))),
    }),
    projects: new SqliteCatalogTable<ProjectRecord>(connection, {
      feedName: "projects",
      table: projects,
      nameColumn: projects.name,
      keyOf: (p) => ({ name: p.name }),
      inUse: async (db, key) => {
        // The maintained counter answers without scanning instances.
        const [counter] = await db
          .select({ instances: projectUsage.instances })
          .from(projectUsage)
          .where(eq(projectUsage.project, key.name));
        return projectInUse({
          instances: counter?.instances ?? 0,
          hasProfiles: await exists(db, profiles, eq(profiles.project, key.name)),
          hasPlacementGroups: await exists(db, placementGroups, eq(placementGroups.project, key.name)),
        });
      },
    }),
    profiles: new SqliteCatalogTable<ProfileRecord>(connection, {
      feedName: "profiles",
      table: profiles,
      nameColumn: profiles.name,
      projectColumn: profiles.project,
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (db, p) => projectMustExist(db, p.project),
      inUse: async (db, key) => {
        const users = await countWhere(
          db,
          instanceProfiles,
          and(eq(instanceProfiles.project, projectOf(key)), eq(instanceProfiles.profile, key.name)),
        );
        return profileInUse(users);
      },
    }),
    flavors: new SqliteCatalogTable<FlavorRecord>(connection, {
      feedName: "flavors",
      table: flavors,
      nameColumn: flavors.name,
      keyOf: (f) => ({ name: f.name }),
    }),
    images: new SqliteCatalogTable<ImageRecord>(connection, {
      feedName: "images",
      table: images,
      nameColumn: images.fingerprint,
      keyOf: (i) => ({ name: i.fingerprint }),
    }),
    placementGroups: new SqliteCatalogTable<PlacementGroupRecord>(connection, {
      feedName: "placementGroups",
      table: placementGroups,
      nameColumn: placementGroups.name,
      projectColumn: placementGroups.project,
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (db, p) => projectMustExist(db, p.project),
      inUse: async (db, key) => {
        const users = await countWhere(
          db,
          instances,
          and(eq(instances.project, projectOf(key)), eq(instances.placementGroup, key.name)),
        );
        return placementGroupInUse(users);
      },
    }),
    resourceClasses: new SqliteCatalogTable<ResourceClassRecord>(connection, {
      feedName: "resourceClasses",
      table: resourceClasses,
      nameColumn: resourceClasses.name,
      keyOf: (r) => ({ name: r.name }),
      toRow: (r) => ({ name: r.name }),
      fromRow: (row) => ({ name: String(row.name), custom: true }),
      inUse: async (db, key) => {
        const [holder] = await db
          .select({ member: inventories.memberId })
          .from(inventories)
          .where(eq(inventories.resourceClass, key.name))
          .limit(1);
        const [provider] = await db
          .select({ uuid: providers.uuid })
          .from(providers)
          .where(
            sql`EXISTS (SELECT 1 FROM json_each(${providers.inventories}) WHERE json_each.key = ${key.name})`,
          )
          .limit(1);
        return resourceClassInUse({
          memberInventory: holder !== undefined,
          providerInventory: provider?.uuid,
          allocated: await exists(db, usage, and(eq(usage.resourceClass, key.name), gt(usage.amount, 0))),
        });
      },
    }),
    providers: new SqliteCatalogTable<ProviderRecord>(connection, {
      feedName: "providers",
      table: providers,
      nameColumn: providers.uuid,
      keyOf: (p) => ({ name: p.uuid }),
      validate: async (db, p) => {
        const held = await db
          .selectDistinct({ resourceClass: consumerAllocations.resourceClass })
          .from(consumerAllocations)
          .where(eq(consumerAllocations.providerUuid, p.uuid));
        const [other] = await db
          .select({ uuid: providers.uuid })
          .from(providers)
          .where(and(eq(providers.name, p.name), sql`${providers.uuid} <> ${p.uuid}`))
          .limit(1);
        checkProviderWrite(p, {
          heldClasses: held.map((row) => row.resourceClass),
          nameTaken: other !== undefined,
          parentExists:
            p.parentUuid !== null && (await exists(db, providers, eq(providers.uuid, p.parentUuid))),
        });
      },
      inUse: async (db, key) => {
        return providerInUse({
          children: await countWhere(db, providers, eq(providers.parentUuid, key.name)),
          allocated: await exists(db, consumerAllocations, eq(consumerAllocations.providerUuid, key.name)),
        });
      },
    }),
    traits: new SqliteCatalogTable<TraitRecord>(connection, {
      feedName: "traits",
      table: traits,
      nameColumn: traits.name,
      keyOf: (t) => ({ name: t.name }),
      inUse: async (db, key) => {
        const [holder] = await db
          .select({ uuid: providers.uuid })
          .from(providers)
          .where(
            sql`EXISTS (SELECT 1 FROM json_each(${providers.traits}) WHERE json_each.value = ${key.name})`,
          )
          .limit(1);
        const [member] = await db
          .select({ name: members.name })
          .from(memberTraits)
          .innerJoin(members, eq(members.id, memberTraits.memberId))
          .where(eq(memberTraits.trait, key.name))
          .limit(1);
        return traitInUse({ provider: holder?.uuid, member: member?.name });
      },
    }),
  };
}

function projectOf(key: RecordKey): string {
  return key.project ?? "default";
}
