import { runStoreContract } from "@berth/engine/store-contract";
import { beforeAll, inject } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { createTestDatabase, emptyTestDatabase } from "../testing/databases.js";

let url: string;
beforeAll(async () => {
  url = await createTestDatabase(inject("postgresAdminUrl"));
});

runStoreContract("postgres", async () => {
  await emptyTestDatabase(url);
  return openPostgresStore(url);
});
