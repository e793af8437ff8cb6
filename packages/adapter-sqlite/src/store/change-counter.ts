import type { RawSql } from "../connection/open-connection.js";

/** Moves the change counter by one, inside the caller's write transaction. */
export async function bumpChangeVersion(raw: RawSql): Promise<void> {
  await raw.run(
    "INSERT INTO change_counter (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = version + 1",
  );
}

export async function readChangeVersion(raw: RawSql): Promise<number> {
  const [row] = await raw.rows("SELECT version FROM change_counter WHERE id = 1");
  return row === undefined ? 0 : Number(row.version);
}
