/**
 * Writes a synthetic cluster into a SQLite file in the adapter's schema, fast
 * enough to build 1,000,000 instances inside a benchmark run: the catalog goes
 * through the real Store (openStore creates and migrates the schema), members
 * are inserted from their JSON specs with `json_each`, and instances,
 * allocations, profile links and the usage counters are computed inside
 * SQLite by recursive CTEs with secondary indexes dropped during the load and
 * rebuilt after it. Every row equals what `instanceSpec`/`memberSpec` give
 * (a test compares them through the store), and `check()` passes on the result.
 */
import { openStore } from "@berth/adapter-sqlite";
import { Engine } from "@berth/engine";
import { type Client, createClient } from "@libsql/client";
import { log, since } from "../measure/timing.js";
import {
  AARCH64_EVERY,
  CUSTOM_CLASSES,
  FORTHCOMING_EVERY,
  FPGA_EVERY,
  GENERATED_AT,
  GPU_EVERY,
  INSTANCE_SIZES,
  PROJECTS,
} from "./catalog.js";
import { memberSpec } from "./member-spec.js";
import { seedCatalog } from "./seed-memory.js";
import type { ClusterShape } from "./shape.js";

/** Tables whose secondary indexes are rebuilt after the bulk load. */
const BULK_TABLES = ["instances", "allocations", "instance_profiles"];

function seq(count: number): string {
  return `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count - 1})`;
}

async function step(label: string, client: Client, statements: string[], args: unknown[][] = []) {
  const started = performance.now();
  const tx = await client.transaction("write");
  try {
    for (const [i, sql] of statements.entries()) {
      await tx.execute({ sql, args: (args[i] ?? []) as never });
    }
    await tx.commit();
  } finally {
    tx.close();
  }
  log(`  ${label}: ${since(started)} ms`);
}

async function insertMembers(client: Client, members: number, heartbeatAt: string): Promise<void> {
  const specs = Array.from({ length: members }, (_, i) => ({ id: i + 1, ...memberSpec(i + 1, heartbeatAt) }));
  const inventories = specs.flatMap((m) =>
    Object.entries(m.inventories).map(([resourceClass, inv]) => ({ member: m.id, resourceClass, ...inv })),
  );
  const traits = specs.flatMap((m) => m.traits.map((trait) => ({ member: m.id, trait })));
  const memberRows = specs.map((m) => ({ ...m, inventories: undefined, traits: undefined }));
  await step(
    "members, inventories, traits",
    client,
    [
      `INSERT INTO members (id, name, url, architecture, description, failure_domain, roles, config,
         evacuated, last_heartbeat, state, resources, generation, created_at)
       SELECT value ->> '$.id', value ->> '$.name', value ->> '$.url', value ->> '$.architecture',
              value ->> '$.description', value ->> '$.failureDomain', value -> '$.roles', value -> '$.config',
              0, value ->> '$.lastHeartbeat', value -> '$.state', NULL, 1, '${GENERATED_AT}'
       FROM json_each(?)`,
      `INSERT INTO inventories (member_id, resource_class, total, reserved, min_unit, max_unit, step_size,
         allocation_ratio, source)
       SELECT value ->> '$.member', value ->> '$.resourceClass', value ->> '$.total', value ->> '$.reserved',
              value ->> '$.minUnit', value ->> '$.maxUnit', value ->> '$.stepSize',
              value ->> '$.allocationRatio', value ->> '$.source'
       FROM json_each(?)`,
      `INSERT INTO member_traits (member_id, trait) SELECT value ->> '$.member', value ->> '$.trait' FROM json_each(?)`,
    ],
    [[JSON.stringify(memberRows)], [JSON.stringify(inventories)], [JSON.stringify(traits)]],
  );
}

/** Lookup tables the CTEs join on: instance sizes and projects by index. */
async function createLookupTables(client: Client): Promise<void> {
  await client.execute("CREATE TEMP TABLE bench_sizes (k INTEGER PRIMARY KEY, vcpus, memory_mib, disk_gib)");
  await client.execute({
    sql: `INSERT INTO bench_sizes SELECT key, value ->> '$.vcpus', value ->> '$.memoryMiB', value ->> '$.diskGiB'
          FROM json_each(?)`,
    args: [JSON.stringify(INSTANCE_SIZES)],
  });
  await client.execute("CREATE TEMP TABLE bench_projects (k INTEGER PRIMARY KEY, name TEXT)");
  await client.execute({
    sql: "INSERT INTO bench_projects SELECT key, value FROM json_each(?)",
    args: [JSON.stringify(PROJECTS)],
  });
}

async function insertInstances(client: Client, { members, instances }: ClusterShape): Promise<void> {
  const sizes = INSTANCE_SIZES.length;
  // The same mixing as instance-spec.ts (sizeIndexOf, projectIndexOf, isForthcoming).
  const rank = `(n / ${members})`;
  const forthcoming = `((n + ${rank}) % ${FORTHCOMING_EVERY} = 0)`;
  const ledger = `CASE WHEN ${forthcoming} THEN 'forthcoming' ELSE 'used' END`;
  const id = "printf('00000000-0000-4000-8000-%012x', n)";
  const member = `((n % ${members}) + 1)`;
  const sizeJoin = `JOIN bench_sizes s ON s.k = (n + ${rank}) % ${sizes}`;
  const projectJoin = `JOIN bench_projects p ON p.k = (n + 3 * ${rank}) % ${PROJECTS.length}`;
  // `position` keeps an instance's allocations in the order the engine writes them (by class, as below).
  const allocation = (position: number, resourceClass: string, amount: string, where = "") =>
    `${seq(instances)} INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount, position)
       SELECT ${id}, ${member}, '${resourceClass}', ${ledger}, ${amount}, ${position}
       FROM seq ${sizeJoin} ${where}`;
  const saved = await client.execute(
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN (${BULK_TABLES.map((t) => `'${t}'`).join(", ")})`,
  );
  const indexes = saved.rows.map((row) => ({ name: String(row.name), sql: String(row.sql) }));
  await step(
    "drop secondary indexes",
    client,
    indexes.map((index) => `DROP INDEX "${index.name}"`),
  );
  await step("instances", client, [
    `${seq(instances)} INSERT INTO instances (id, project, name, type, member_id, forthcoming, architecture,
       description, ephemeral, profiles, config, devices, instance_type, flavor, source, placement_group,
       origin, created_at, limits_cpu, limits_memory_bytes, limits_disk_bytes, revision)
     SELECT ${id}, p.name, 'inst-' || n, CASE n % 3 WHEN 0 THEN 'virtual-machine' ELSE 'container' END,
            ${member}, ${forthcoming},
            CASE ${member} % ${AARCH64_EVERY} WHEN 0 THEN 'aarch64' ELSE 'x86_64' END, '', 0, '["default"]',
            json_object('limits.cpu', CAST(s.vcpus AS TEXT), 'limits.memory', s.memory_mib || 'MiB'),
            json_object('root', json_object('path', '/', 'pool', 'default', 'type', 'disk',
                                            'size', s.disk_gib || 'GiB')),
            NULL, NULL, NULL, NULL, NULL, '${GENERATED_AT}',
            s.vcpus, s.memory_mib * 1048576, s.disk_gib * 1073741824, 1
     FROM seq ${sizeJoin} ${projectJoin}`,
  ]);
  await step("allocations", client, [
    allocation(0, "VCPU", "s.vcpus"),
    allocation(1, "MEMORY_MB", "s.memory_mib"),
    allocation(2, "DISK_GB", "s.disk_gib"),
    allocation(3, CUSTOM_CLASSES.gpu, "1", `WHERE ${member} % ${GPU_EVERY} = 0 AND ${rank} < 2`),
    allocation(4, CUSTOM_CLASSES.fpga, "1", `WHERE ${member} % ${FPGA_EVERY} = 0 AND ${rank} < 1`),
  ]);
  await step("profile links", client, [
    `${seq(instances)} INSERT INTO instance_profiles (instance_id, project, profile)
       SELECT ${id}, p.name, 'default' FROM seq ${projectJoin}`,
  ]);
  await step(
    "rebuild secondary indexes",
    client,
    indexes.map((index) => index.sql),
  );
  await step("usage and project counters", client, [
    `INSERT INTO usage (member_id, resource_class, ledger, amount)
       SELECT member_id, resource_class, ledger, sum(amount) FROM allocations
       GROUP BY member_id, resource_class, ledger`,
    `INSERT OR REPLACE INTO project_usage (project, instances, containers, virtual_machines, cpu, memory_bytes,
       disk_bytes)
       SELECT project, count(*), sum(type = 'container'), sum(type = 'virtual-machine'), sum(limits_cpu),
              sum(limits_memory_bytes), sum(limits_disk_bytes) FROM instances GROUP BY project`,
  ]);
}

/** Creates `file` (which must not exist yet) holding the cluster. */
export async function generateSqliteCluster(file: string, shape: ClusterShape): Promise<void> {
  const started = performance.now();
  const store = await openStore(file);
  await Engine.open({ store }); // the default project and profile, as berthd would create them
  await seedCatalog(store);
  await store.close();
  const client = createClient({ url: `file:${file}` });
  try {
    await client.execute("PRAGMA synchronous = OFF");
    await client.execute("PRAGMA cache_size = -262144");
    await client.execute("PRAGMA temp_store = MEMORY");
    await insertMembers(client, shape.members, new Date().toISOString());
    if (shape.instances > 0) {
      await createLookupTables(client);
      await insertInstances(client, shape);
    }
    await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    client.close();
  }
  log(`generated ${shape.members} members / ${shape.instances} instances in ${since(started)} ms`);
}
