/**
 * A claim's lookups reach members, instances, consumers and providers
 * through their unique indexes whatever the planner believes about the
 * tables' sizes. The statements run as prepared statements, whose generic
 * plan is made once per connection, often while the tables are still small:
 * written with `= ANY(...)` or as a join, that plan scanned every member on
 * every claim (and every instance, once there were thousands) for as long as
 * the connection lived. Here the generic plans are made on a fresh, empty
 * database, the most tempting case for a scan.
 */
import { createTestDatabase } from "@berth/postgres-test-server";
import { memberProvidersSql, numbered } from "@berth/sql-core";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { LOCK_MEMBERS_IN_ORDER, LOOK_UP_AND_LOCK } from "./claim-reads.js";

const unavailable = inject("postgresUnavailable");
const SCANNED_BY_KEY = /Seq Scan on (members|instances|consumers|providers)\b/;

let client: pg.Client;
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = await createTestDatabase(inject("postgresAdminUrl"));
  // The store creates the schema (its migrations).
  await (await openPostgresStore(url)).close();
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("SET plan_cache_mode = force_generic_plan");
});
afterAll(async () => {
  await client?.end();
});

async function genericPlan(name: string, text: string, args: string): Promise<string> {
  await client.query(`PREPARE ${name} AS ${text}`);
  const { rows } = await client.query(`EXPLAIN EXECUTE ${name}(${args})`);
  return rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
}

it.skipIf(unavailable !== "")("the claim's lock-and-look-up statement probes indexes only", async () => {
  const plan = await genericPlan(
    "look_up",
    LOOK_UP_AND_LOCK,
    `'{i1,i2}', '[["default","web1"]]', '{default}', '[]', '[]', '{node1,node2}'`,
  );
  expect(plan).toMatch(/Index Scan using \w+ on members/);
  expect(plan).not.toMatch(SCANNED_BY_KEY);
});

it.skipIf(unavailable !== "")("the claim's member read probes indexes only", async () => {
  const plan = await genericPlan(
    "read_members",
    numbered(memberProvidersSql("pg")),
    `'MEMORY_MB', '[["node1","u1"],["node2","u2"]]'`,
  );
  expect(plan).toMatch(/Index Scan using \w+ on members/);
  expect(plan).not.toMatch(SCANNED_BY_KEY);
});

it.skipIf(unavailable !== "")("a Placement claim's member lock probes indexes only", async () => {
  const plan = await genericPlan("lock_members", LOCK_MEMBERS_IN_ORDER, `'{node1,node2}'`);
  expect(plan).toMatch(/Index Scan using \w+ on members/);
  expect(plan).not.toMatch(SCANNED_BY_KEY);
});
