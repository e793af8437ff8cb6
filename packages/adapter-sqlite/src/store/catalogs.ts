import {
  conflict,
  type FlavorRecord,
  type GroupRecord,
  type ImageRecord,
  notFound,
  type PlacementGroupRecord,
  type ProfileRecord,
  type ProjectRecord,
  type ProviderRecord,
  type RecordKey,
  type ResourceClassRecord,
  type TraitRecord,
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

async function requireProject(db: Database, project: string): Promise<void> {
  if (!(await exists(db, projects, eq(projects.name, project))))
    throw notFound(`Project "${project}" not found`);
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
      label: "Cluster group",
      feedName: "groups",
      table: groups,
      nameColumn: groups.name,
      keyOf: (g) => ({ name: g.name }),
      inUse: async (db, key) => {
        const users = await countWhere(db, memberGroups, eq(memberGroups.group, key.name));
        return users > 0 ? `${users} member(s) belong to it` : undefined;
      },
    }),
    projects: new SqliteCatalogTable<ProjectRecord>(connection, {
      label: "Project",
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
        if ((counter?.instances ?? 0) > 0) return `${counter?.instances} instance(s)`;
        if (await exists(db, profiles, eq(profiles.project, key.name))) return "it has profiles";
        if (await exists(db, placementGroups, eq(placementGroups.project, key.name)))
          return "it has placement groups";
        return undefined;
      },
    }),
    profiles: new SqliteCatalogTable<ProfileRecord>(connection, {
      label: "Profile",
      feedName: "profiles",
      table: profiles,
      nameColumn: profiles.name,
      projectColumn: profiles.project,
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (db, p) => requireProject(db, p.project),
      inUse: async (db, key) => {
        const users = await countWhere(
          db,
          instanceProfiles,
          and(eq(instanceProfiles.project, projectOf(key)), eq(instanceProfiles.profile, key.name)),
        );
        return users > 0 ? `used by ${users} instance(s)` : undefined;
      },
    }),
    flavors: new SqliteCatalogTable<FlavorRecord>(connection, {
      label: "Flavor",
      feedName: "flavors",
      table: flavors,
      nameColumn: flavors.name,
      keyOf: (f) => ({ name: f.name }),
    }),
    images: new SqliteCatalogTable<ImageRecord>(connection, {
      label: "Image",
      feedName: "images",
      table: images,
      nameColumn: images.fingerprint,
      keyOf: (i) => ({ name: i.fingerprint }),
    }),
    placementGroups: new SqliteCatalogTable<PlacementGroupRecord>(connection, {
      label: "Placement group",
      feedName: "placementGroups",
      table: placementGroups,
      nameColumn: placementGroups.name,
      projectColumn: placementGroups.project,
      keyOf: (p) => ({ project: p.project, name: p.name }),
      validate: (db, p) => requireProject(db, p.project),
      inUse: async (db, key) => {
        const users = await countWhere(
          db,
          instances,
          and(eq(instances.project, projectOf(key)), eq(instances.placementGroup, key.name)),
        );
        return users > 0 ? `${users} instance(s) belong to it` : undefined;
      },
    }),
    resourceClasses: new SqliteCatalogTable<ResourceClassRecord>(connection, {
      label: "Resource class",
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
        if (holder !== undefined) return "a member has an inventory of it";
        const [provider] = await db
          .select({ uuid: providers.uuid })
          .from(providers)
          .where(
            sql`EXISTS (SELECT 1 FROM json_each(${providers.inventories}) WHERE json_each.key = ${key.name})`,
          )
          .limit(1);
        if (provider !== undefined) return `provider "${provider.uuid}" has an inventory of it`;
        if (await exists(db, usage, and(eq(usage.resourceClass, key.name), gt(usage.amount, 0)))) {
          return "instances have allocations of it";
        }
        return undefined;
      },
    }),
    providers: new SqliteCatalogTable<ProviderRecord>(connection, {
      label: "Resource provider",
      feedName: "providers",
      table: providers,
      nameColumn: providers.uuid,
      keyOf: (p) => ({ name: p.uuid }),
      validate: async (db, p) => {
        const held = await db
          .selectDistinct({ resourceClass: consumerAllocations.resourceClass })
          .from(consumerAllocations)
          .where(eq(consumerAllocations.providerUuid, p.uuid));
        for (const { resourceClass } of held) {
          if (p.inventories[resourceClass] === undefined)
            throw conflict(`Inventory of ${resourceClass} on provider "${p.uuid}" is in use`, {
              reason: "inventory_in_use",
              resourceClass,
            });
        }
        const [other] = await db
          .select({ uuid: providers.uuid })
          .from(providers)
          .where(and(eq(providers.name, p.name), sql`${providers.uuid} <> ${p.uuid}`))
          .limit(1);
        if (other !== undefined)
          throw conflict(`Resource provider name "${p.name}" is taken`, { reason: "name_taken" });
        if (p.parentUuid !== null && !(await exists(db, providers, eq(providers.uuid, p.parentUuid))))
          throw notFound(`Resource provider "${p.parentUuid}" not found`);
      },
      inUse: async (db, key) => {
        const children = await countWhere(db, providers, eq(providers.parentUuid, key.name));
        if (children > 0) return `${children} child provider(s)`;
        const held = await exists(db, consumerAllocations, eq(consumerAllocations.providerUuid, key.name));
        return held ? "it has allocations" : undefined;
      },
    }),
    traits: new SqliteCatalogTable<TraitRecord>(connection, {
      label: "Trait",
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
        return holder === undefined ? undefined : `provider "${holder.uuid}" has it`;
      },
    }),
  };
}

function projectOf(key: RecordKey): string {
  return key.project ?? "default";
}
