/**
 * The sessions each pool opens: the write pool's prepared statements run
 * their generic plans (claims are planned once per connection, not on
 * every execution), the read pool's are left to PostgreSQL, and settings a
 * URL gives in `options` reach both.
 */
import { createTestDatabase } from "@berth/postgres-test-server";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { Pools } from "./pools.js";

const unavailable = inject("postgresUnavailable");

let pools: Pools;
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = new URL(await createTestDatabase(inject("postgresAdminUrl")));
  url.searchParams.set("options", "-c work_mem=8MB");
  pools = new Pools(url.toString());
});
afterAll(async () => {
  await pools?.close();
});

const settingIn = async (pool: "writeTx" | "readTx", name: string) =>
  pools[pool](
    async (tx) =>
      (await tx.rows<{ setting: string }>(`SELECT current_setting('${name}') AS setting`))[0]!.setting,
  );

it.skipIf(unavailable !== "")("write sessions use generic plans only; read sessions choose", async () => {
  expect(await settingIn("writeTx", "plan_cache_mode")).toBe("force_generic_plan");
  expect(await settingIn("readTx", "plan_cache_mode")).toBe("auto");
});

it.skipIf(unavailable !== "")("a URL's own options reach the sessions of both pools", async () => {
  expect(await settingIn("writeTx", "work_mem")).toBe("8MB");
  expect(await settingIn("readTx", "work_mem")).toBe("8MB");
});
