/**
 * Migrations whose rows need more than SQL can do here: each runs inside its migration's
 * transaction right after the migration's SQL, so the two land together or not at all. Keyed by
 * the migration's name without its number (the number changes as branches merge; the name does
 * not).
 */
import { createHash } from "node:crypto";
import type { SqlTransaction } from "../connection/local-client.js";

export type DataStep = (tx: SqlTransaction) => Promise<void>;

/** The migration's name without its number: `0014_trust_token_hashes` -> `trust_token_hashes`. */
export function stepName(tag: string): string {
  return tag.replace(/^\d+_/, "");
}

export const DATA_STEPS: Readonly<Record<string, DataStep>> = {
  /**
   * Pending certificate-add tokens kept their secret as given; from this migration on only its
   * hash is kept (hex SHA-256 of the UTF-8 secret, berthd's `hashTokenSecret`). SQLite has no
   * SHA-256 function, so the rows are hashed here (PostgreSQL's migration does it in SQL).
   */
  trust_token_hashes: async (tx) => {
    const { rows } = await tx.execute("SELECT id, secret_hash FROM trust_tokens");
    for (const row of rows) {
      const hash = createHash("sha256").update(String(row.secret_hash), "utf8").digest("hex");
      await tx.execute({
        sql: "UPDATE trust_tokens SET secret_hash = ? WHERE id = ?",
        args: [hash, String(row.id)],
      });
    }
  },
};
