import { runStoreContract } from "@berth/engine/store-contract";
import { beforeAll, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { createTestDatabase, emptyTestDatabase } from "../testing/databases.js";

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
