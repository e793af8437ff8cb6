import { runStoreContract } from "@berth/engine/store-contract";
import { createTestDatabase, emptyTestDatabase } from "@berth/postgres-test-server";
import { beforeAll, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";

const unavailable = inject("postgresUnavailable");
if (unavailable !== "") {
  it.skip(`Store contract on PostgreSQL skipped: ${unavailable}`, () => {});
} else {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase(inject("postgresAdminUrl"));
  });

  runStoreContract("postgres", async () => {
    await emptyTestDatabase(url);
    return openPostgresStore(url);
  });
}
