import type {
  FlavorRecord,
  GroupRecord,
  ImageRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
  ProviderRecord,
  RecordKey,
  ResourceClassRecord,
  TraitRecord,
} from "@berth/engine";
import { conflict, notFound } from "@berth/engine";
import type { Pools, Tx } from "../connection/pools.js";
import {
  flavors,
  groups,
  images,
  placementGroups,
  profiles,
  projects,
  providers,
  resourceClasses,
  traits,
} from "../schema/index.js";
import { PostgresCatalogTable } from "./catalog-table.js";

async function count(tx: Tx, sql: string, params: unknown[]): Promise<number> {
  const [row] = await tx.rows<{ n: number }>(sql, params);
  return Number(row?.n ?? 0);
}

async function exists(tx: Tx, sql: string, params: unknown[]): Promise<boolean> {
  return (await tx.rows(`SELECT EXISTS (${sql}) AS e`, params).then((rows) => rows[0]?.e)) === true;
}

/** The project must exist; its row is share-locked so it cannot go before this commits. */
async function requireProject(tx: Tx, project: string): Promise<void> {
  const [row] = await tx.rows("SELECT 1 FROM projects WHERE name = $1 FOR KEY SHARE", [project]);
  if (row === undefined) throw notFound(`Project "${project}" not found`);
}

function projectOf(key: RecordKey): string {
  return key.project ?? "default";
}

export interface Catalogs {
  groups: PostgresCatalogTable<GroupRecord>;
  projects: PostgresCatalogTable<ProjectRecord>;
  profiles: PostgresCatalogTable<ProfileRecord>;
  flavors: PostgresCatalogTable<FlavorRecord>;
  images: PostgresCatalogTable<ImageRecord>;
  placementGroups: PostgresCatalogTable<PlacementGroupRecord>;
  resourceClasses: PostgresCatalogTable<ResourceClassRecord>;
  providers: PostgresCatalogTable<ProviderRecord>;
  traits: PostgresCatalogTable<TraitRecord>;
}

export function createCatalogs(pools: Pools, afterWrite: () => void = () => undefined): Catalogs {
  return {
    groups: new PostgresCatalogTable<GroupRecord>(
      pools,
      {
        label: "Cluster group",
        feedName: "groups",
        table: groups,
        nameColumn: groups.name,
        keyOf: (g) => ({ name: g.name }),
        inUse: async (tx, key) => {
          const users = await count(
            tx,
            "SELECT count(*)::int AS n FROM member_groups WHERE group_name = $1",
            [key.name],
          );
          return users > 0 ? `${users} member(s) belong to it` : undefined;
        },
      },
      afterWrite,
    ),
    projects: new PostgresCatalogTable<ProjectRecord>(
      pools,
      {
        label: "Project",
        feedName: "projects",
        table: projects,
        nameColumn: projects.name,
        keyOf: (p) => ({ name: p.name }),
        inUse: async (tx, key) => {
          const instances = await count(tx, "SELECT count(*)::int AS n FROM instances WHERE project = $1", [
            key.name,
          ]);
          if (instances > 0) return `${instances} instance(s)`;
          if (await exists(tx, "SELECT 1 FROM profiles WHERE project = $1", [key.name]))
            return "it has profiles";
          if (await exists(tx, "SELECT 1 FROM placement_groups WHERE project = $1", [key.name]))
            return "it has placement groups";
          return undefined;
        },
      },
      afterWrite,
    ),
    profiles: new PostgresCatalogTable<ProfileRecord>(
      pools,
      {
        label: "Profile",
        feedName: "profiles",
        table: profiles,
        nameColumn: profiles.name,
        projectColumn: profiles.project,
        keyOf: (p) => ({ project: p.project, name: p.name }),
        validate: (tx, p) => requireProject(tx, p.project),
        inUse: async (tx, key) => {
          const users = await count(
            tx,
            "SELECT count(*)::int AS n FROM instance_profiles WHERE project = $1 AND profile = $2",
            [projectOf(key), key.name],
          );
          return users > 0 ? `used by ${users} instance(s)` : undefined;
        },
      },
      afterWrite,
    ),
    flavors: new PostgresCatalogTable<FlavorRecord>(
      pools,
      {
        label: "Flavor",
        feedName: "flavors",
        table: flavors,
        nameColumn: flavors.name,
        keyOf: (f) => ({ name: f.name }),
      },
      afterWrite,
    ),
    images: new PostgresCatalogTable<ImageRecord>(
      pools,
      {
        label: "Image",
        feedName: "images",
        table: images,
        nameColumn: images.fingerprint,
        keyOf: (i) => ({ name: i.fingerprint }),
      },
      afterWrite,
    ),
    placementGroups: new PostgresCatalogTable<PlacementGroupRecord>(
      pools,
      {
        label: "Placement group",
        feedName: "placementGroups",
        table: placementGroups,
        nameColumn: placementGroups.name,
        projectColumn: placementGroups.project,
        keyOf: (p) => ({ project: p.project, name: p.name }),
        validate: (tx, p) => requireProject(tx, p.project),
        inUse: async (tx, key) => {
          const users = await count(
            tx,
            "SELECT count(*)::int AS n FROM instances WHERE project = $1 AND placement_group = $2",
            [projectOf(key), key.name],
          );
          return users > 0 ? `${users} instance(s) belong to it` : undefined;
        },
      },
      afterWrite,
    ),
    resourceClasses: new PostgresCatalogTable<ResourceClassRecord>(
      pools,
      {
        label: "Resource class",
        feedName: "resourceClasses",
        table: resourceClasses,
        nameColumn: resourceClasses.name,
        keyOf: (r) => ({ name: r.name }),
        toRow: (r) => ({ name: r.name }),
        fromRow: (row) => ({ name: String(row.name), custom: true }),
        inUse: async (tx, key) => {
          if (await exists(tx, "SELECT 1 FROM inventories WHERE resource_class = $1", [key.name]))
            return "a member has an inventory of it";
          const [provider] = await tx.rows<{ uuid: string }>(
            "SELECT uuid FROM providers WHERE inventories ? $1 LIMIT 1",
            [key.name],
          );
          if (provider !== undefined) return `provider "${provider.uuid}" has an inventory of it`;
          if (await exists(tx, "SELECT 1 FROM usage WHERE resource_class = $1 AND amount > 0", [key.name]))
            return "instances have allocations of it";
          return undefined;
        },
      },
      afterWrite,
    ),
    providers: new PostgresCatalogTable<ProviderRecord>(
      pools,
      {
        label: "Resource provider",
        feedName: "providers",
        table: providers,
        nameColumn: providers.uuid,
        keyOf: (p) => ({ name: p.uuid }),
        validate: async (tx, p) => {
          const held = await tx.rows<{ resource_class: string }>(
            "SELECT DISTINCT resource_class FROM consumer_allocations WHERE provider_uuid = $1",
            [p.uuid],
          );
          for (const { resource_class: resourceClass } of held) {
            if (p.inventories[resourceClass] === undefined)
              throw conflict(`Inventory of ${resourceClass} on provider "${p.uuid}" is in use`, {
                reason: "inventory_in_use",
                resourceClass,
              });
          }
          if (await exists(tx, "SELECT 1 FROM providers WHERE name = $1 AND uuid <> $2", [p.name, p.uuid]))
            throw conflict(`Resource provider name "${p.name}" is taken`, { reason: "name_taken" });
          // The parent's row is share-locked so it cannot go before this commits.
          if (p.parentUuid !== null) {
            const [parent] = await tx.rows("SELECT 1 FROM providers WHERE uuid = $1 FOR KEY SHARE", [
              p.parentUuid,
            ]);
            if (parent === undefined) throw notFound(`Resource provider "${p.parentUuid}" not found`);
          }
        },
        inUse: async (tx, key) => {
          const children = await count(
            tx,
            "SELECT count(*)::int AS n FROM providers WHERE parent_uuid = $1",
            [key.name],
          );
          if (children > 0) return `${children} child provider(s)`;
          const held = await exists(tx, "SELECT 1 FROM consumer_allocations WHERE provider_uuid = $1", [
            key.name,
          ]);
          return held ? "it has allocations" : undefined;
        },
      },
      afterWrite,
    ),
    traits: new PostgresCatalogTable<TraitRecord>(
      pools,
      {
        label: "Trait",
        feedName: "traits",
        table: traits,
        nameColumn: traits.name,
        keyOf: (t) => ({ name: t.name }),
        inUse: async (tx, key) => {
          const [holder] = await tx.rows<{ uuid: string }>(
            "SELECT uuid FROM providers WHERE traits ? $1 LIMIT 1",
            [key.name],
          );
          return holder === undefined ? undefined : `provider "${holder.uuid}" has it`;
        },
      },
      afterWrite,
    ),
  };
}
