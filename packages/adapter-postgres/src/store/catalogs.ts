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
import {
  checkProviderWrite,
  groupInUse,
  placementGroupInUse,
  profileInUse,
  projectInUse,
  providerInUse,
  requireProject,
  resourceClassInUse,
  traitInUse,
} from "@berth/engine";
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
async function projectMustExist(tx: Tx, project: string): Promise<void> {
  const [row] = await tx.rows("SELECT 1 FROM projects WHERE name = $1 FOR KEY SHARE", [project]);
  requireProject(project, row !== undefined);
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
          return groupInUse(users);
        },
      },
      afterWrite,
    ),
    projects: new PostgresCatalogTable<ProjectRecord>(
      pools,
      {
        feedName: "projects",
        table: projects,
        nameColumn: projects.name,
        keyOf: (p) => ({ name: p.name }),
        inUse: async (tx, key) => {
          const instances = await count(tx, "SELECT count(*)::int AS n FROM instances WHERE project = $1", [
            key.name,
          ]);
          return projectInUse({
            instances,
            hasProfiles: await exists(tx, "SELECT 1 FROM profiles WHERE project = $1", [key.name]),
            hasPlacementGroups: await exists(tx, "SELECT 1 FROM placement_groups WHERE project = $1", [
              key.name,
            ]),
          });
        },
      },
      afterWrite,
    ),
    profiles: new PostgresCatalogTable<ProfileRecord>(
      pools,
      {
        feedName: "profiles",
        table: profiles,
        nameColumn: profiles.name,
        projectColumn: profiles.project,
        keyOf: (p) => ({ project: p.project, name: p.name }),
        validate: (tx, p) => projectMustExist(tx, p.project),
        inUse: async (tx, key) => {
          const users = await count(
            tx,
            "SELECT count(*)::int AS n FROM instance_profiles WHERE project = $1 AND profile = $2",
            [projectOf(key), key.name],
          );
          return profileInUse(users);
        },
      },
      afterWrite,
    ),
    flavors: new PostgresCatalogTable<FlavorRecord>(
      pools,
      {
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
        feedName: "placementGroups",
        table: placementGroups,
        nameColumn: placementGroups.name,
        projectColumn: placementGroups.project,
        keyOf: (p) => ({ project: p.project, name: p.name }),
        validate: (tx, p) => projectMustExist(tx, p.project),
        inUse: async (tx, key) => {
          const users = await count(
            tx,
            "SELECT count(*)::int AS n FROM instances WHERE project = $1 AND placement_group = $2",
            [projectOf(key), key.name],
          );
          return placementGroupInUse(users);
        },
      },
      afterWrite,
    ),
    resourceClasses: new PostgresCatalogTable<ResourceClassRecord>(
      pools,
      {
        feedName: "resourceClasses",
        table: resourceClasses,
        nameColumn: resourceClasses.name,
        keyOf: (r) => ({ name: r.name }),
        toRow: (r) => ({ name: r.name }),
        fromRow: (row) => ({ name: String(row.name), custom: true }),
        inUse: async (tx, key) => {
          const memberInventory = await exists(tx, "SELECT 1 FROM inventories WHERE resource_class = $1", [
            key.name,
          ]);
          const [provider] = await tx.rows<{ uuid: string }>(
            "SELECT uuid FROM providers WHERE inventories ? $1 LIMIT 1",
            [key.name],
          );
          return resourceClassInUse({
            memberInventory,
            providerInventory: provider?.uuid,
            allocated: await exists(tx, "SELECT 1 FROM usage WHERE resource_class = $1 AND amount > 0", [
              key.name,
            ]),
          });
        },
      },
      afterWrite,
    ),
    providers: new PostgresCatalogTable<ProviderRecord>(
      pools,
      {
        feedName: "providers",
        table: providers,
        nameColumn: providers.uuid,
        keyOf: (p) => ({ name: p.uuid }),
        validate: async (tx, p) => {
          const held = await tx.rows<{ resource_class: string }>(
            "SELECT DISTINCT resource_class FROM consumer_allocations WHERE provider_uuid = $1",
            [p.uuid],
          );
          const nameTaken = await exists(tx, "SELECT 1 FROM providers WHERE name = $1 AND uuid <> $2", [
            p.name,
            p.uuid,
          ]);
          // The parent's row is share-locked so it cannot go before this commits.
          const [parent] =
            p.parentUuid === null
              ? []
              : await tx.rows("SELECT 1 FROM providers WHERE uuid = $1 FOR KEY SHARE", [p.parentUuid]);
          checkProviderWrite(p, {
            heldClasses: held.map((row) => row.resource_class),
            nameTaken,
            parentExists: parent !== undefined,
          });
        },
        inUse: async (tx, key) => {
          const children = await count(
            tx,
            "SELECT count(*)::int AS n FROM providers WHERE parent_uuid = $1",
            [key.name],
          );
          const allocated = await exists(tx, "SELECT 1 FROM consumer_allocations WHERE provider_uuid = $1", [
            key.name,
          ]);
          return providerInUse({ children, allocated });
        },
      },
      afterWrite,
    ),
    traits: new PostgresCatalogTable<TraitRecord>(
      pools,
      {
        feedName: "traits",
        table: traits,
        nameColumn: traits.name,
        keyOf: (t) => ({ name: t.name }),
        inUse: async (tx, key) => {
          const [holder] = await tx.rows<{ uuid: string }>(
            "SELECT uuid FROM providers WHERE traits ? $1 LIMIT 1",
            [key.name],
          );
          // Member writes insert member_traits without touching this trait's row: the
          // share lock waits for those in flight and holds off new ones until the delete ends.
          await tx.run("LOCK TABLE member_traits IN SHARE MODE");
          const [member] = await tx.rows<{ name: string }>(
            "SELECT m.name FROM member_traits t JOIN members m ON m.id = t.member_id WHERE t.trait = $1 LIMIT 1",
            [key.name],
          );
          return traitInUse({ provider: holder?.uuid, member: member?.name });
        },
      },
      afterWrite,
    ),
  };
}
