/**
 * Fills a store with a synthetic cluster straight in SQL (recursive CTEs in
 * a few transactions): creating 1,000,000 instances through claims would
 * measure the generator, not hydration. The rows are what claims would have
 * written — instances, their allocations and profile links, and the usage
 * and project counters that sum them — and `check()` confirms it.
 */
import { createClient } from "@libsql/client";
import { openStore } from "../dist/index.js";

const PROJECTS = 10;
const PLACEMENT_GROUPS_PER_PROJECT = 5;

export async function generate(file, { members, instances }) {
  // openStore creates the schema through the shipped migrations.
  await (await openStore(file)).close();
  const client = createClient({ url: `file:${file}` });
  await client.execute("PRAGMA journal_mode = WAL");
  await client.execute("PRAGMA synchronous = OFF");
  const seq = (n) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n})`;
  const step = async (label, statements) => {
    const started = performance.now();
    const tx = await client.transaction("write");
    for (const sql of statements) await tx.execute(sql);
    await tx.commit();
    process.stderr.write(`  ${label}: ${Math.round(performance.now() - started)} ms\n`);
  };
  await step("projects, members, inventories", [
    `${seq(PROJECTS)} INSERT INTO projects (name, description, config)
       SELECT CASE n WHEN 1 THEN 'default' ELSE 'p' || n END, '', '{}' FROM seq`,
    `${seq(PROJECTS * PLACEMENT_GROUPS_PER_PROJECT)} INSERT INTO placement_groups (project, name, description, policy, rigor)
       SELECT CASE (n - 1) / ${PLACEMENT_GROUPS_PER_PROJECT} WHEN 0 THEN 'default' ELSE 'p' || ((n - 1) / ${PLACEMENT_GROUPS_PER_PROJECT} + 1) END,
              'pg' || ((n - 1) % ${PLACEMENT_GROUPS_PER_PROJECT}), '', 'spread', 'permissive' FROM seq`,
    `${seq(members)} INSERT INTO members (id, name, url, architecture, description, failure_domain, roles, config,
       evacuated, generation, created_at, state, resources)
       SELECT n, 'member-' || n, 'https://member-' || n || ':8443', 'x86_64', '', 'rack-' || (n % 40), '[]',
              '{"scheduler.instance":"all"}', 0, 1, '2026-01-01T00:00:00.000Z',
              '{"sysinfo":{"load_averages":[0.1,0.2,0.3],"logical_cpus":64}}', NULL FROM seq`,
    `INSERT INTO inventories (member_id, resource_class, total, reserved, min_unit, max_unit, step_size, allocation_ratio, source)
       SELECT id, 'VCPU', 64, 0, 1, 64, 1, 16.0, 'derived' FROM members
       UNION ALL SELECT id, 'MEMORY_MB', 524288, 4096, 1, 524288, 1, 1.5, 'derived' FROM members
       UNION ALL SELECT id, 'DISK_GB', 8000, 0, 1, 8000, 1, 1.0, 'derived' FROM members`,
    `INSERT INTO member_traits (member_id, trait) SELECT id, 'HW_CPU_X86_AVX2' FROM members`,
  ]);
  await step("instances", [
    `${seq(instances)} INSERT INTO instances (id, project, name, type, member_id, forthcoming, architecture, description,
       ephemeral, profiles, config, devices, instance_type, flavor, source, placement_group, origin, created_at,
       limits_cpu, limits_memory_bytes, limits_disk_bytes, revision)
       SELECT printf('00000000-0000-4000-8000-%012x', n),
              CASE n % ${PROJECTS} WHEN 0 THEN 'default' ELSE 'p' || (n % ${PROJECTS} + 1) END,
              'inst-' || n, CASE n % 3 WHEN 0 THEN 'virtual-machine' ELSE 'container' END,
              (n % ${members}) + 1, n % 20 = 0, 'x86_64', '', 0, '["default"]',
              '{"limits.cpu":"2","limits.memory":"2GiB"}', '{"root":{"path":"/","pool":"default","type":"disk","size":"10GiB"}}',
              NULL, NULL, NULL, CASE WHEN n % 10 = 1 THEN 'pg' || (n % ${PLACEMENT_GROUPS_PER_PROJECT}) END, NULL,
              '2026-01-01T00:00:00.000Z', 2, 2147483648, 10737418240, 1
       FROM seq`,
  ]);
  await step("allocations, profiles", [
    `INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount)
       SELECT id, member_id, 'VCPU', CASE forthcoming WHEN 1 THEN 'forthcoming' ELSE 'used' END, 2 FROM instances`,
    `INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount)
       SELECT id, member_id, 'MEMORY_MB', CASE forthcoming WHEN 1 THEN 'forthcoming' ELSE 'used' END, 2048 FROM instances`,
    `INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount)
       SELECT id, member_id, 'DISK_GB', CASE forthcoming WHEN 1 THEN 'forthcoming' ELSE 'used' END, 10 FROM instances`,
    "INSERT INTO instance_profiles (instance_id, project, profile) SELECT id, project, 'default' FROM instances",
  ]);
  await step("usage and project counters", [
    `INSERT INTO usage (member_id, resource_class, ledger, amount)
       SELECT member_id, resource_class, ledger, sum(amount) FROM allocations GROUP BY member_id, resource_class, ledger`,
    `INSERT INTO project_usage (project, instances, containers, virtual_machines, cpu, memory_bytes, disk_bytes)
       SELECT project, count(*), sum(type = 'container'), sum(type = 'virtual-machine'), sum(limits_cpu),
              sum(limits_memory_bytes), sum(limits_disk_bytes) FROM instances GROUP BY project`,
  ]);
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await client.execute("ANALYZE");
  client.close();
}
