import { conflict } from "@berth/engine";
import { first, type SqlRow, type SqlRunner } from "../runner/runner.js";
import { boolValue, jsonParam, jsonValue, optionalText } from "../runner/values.js";

/**
 * A berthd API token as stored: only the hash of its secret. The one
 * record type for every token store (both SQL stores, berthd's file and
 * memory stores).
 */
export interface ApiTokenRecord {
  id: string;
  name: string;
  description?: string;
  /** Hex SHA-256 of the secret. */
  hash: string;
  admin: boolean;
  /** Projects a restricted token may use; empty for admin tokens. */
  projects: string[];
  /** ISO 8601. */
  created_at: string;
}

const COLUMNS = "id, name, description, hash, admin, projects, created_at";

function tokenOf(row: SqlRow): ApiTokenRecord {
  const record: ApiTokenRecord = {
    id: String(row.id),
    name: String(row.name),
    hash: String(row.hash),
    admin: boolValue(row.admin),
    projects: jsonValue<string[]>(row.projects),
    created_at: String(row.created_at),
  };
  const description = optionalText(row.description);
  if (description !== undefined) record.description = description;
  return record;
}

/**
 * The statements of table `api_tokens`. Each adapter runs them in its own
 * transactions and keeps its own cache of lookups (every authenticated
 * request makes one): that is where the two differ.
 */
export const apiTokenRows = {
  /** Conflict when the name (or, absurdly, the hash or id) is taken. */
  async insert(db: SqlRunner, record: ApiTokenRecord): Promise<void> {
    const taken = await first(db, "SELECT 1 FROM api_tokens WHERE name = ? OR hash = ? OR id = ?", [
      record.name,
      record.hash,
      record.id,
    ]);
    if (taken !== undefined) throw conflict(`Token "${record.name}" already exists`);
    await db.run(`INSERT INTO api_tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
      record.id,
      record.name,
      record.description ?? null,
      record.hash,
      record.admin,
      jsonParam(record.projects),
      record.created_at,
    ]);
  },

  async byHash(db: SqlRunner, hash: string): Promise<ApiTokenRecord | undefined> {
    const row = await first(db, `SELECT ${COLUMNS} FROM api_tokens WHERE hash = ?`, [hash]);
    return row === undefined ? undefined : tokenOf(row);
  },

  /** In name order. */
  async list(db: SqlRunner): Promise<ApiTokenRecord[]> {
    return (await db.all(`SELECT ${COLUMNS} FROM api_tokens ORDER BY name`)).map(tokenOf);
  },

  /** False when there is no such token. */
  async setProjects(db: SqlRunner, id: string, projects: string[]): Promise<boolean> {
    return (await db.run("UPDATE api_tokens SET projects = ? WHERE id = ?", [jsonParam(projects), id])) > 0;
  },

  /** By id or name; false when there was no such token. */
  async delete(db: SqlRunner, idOrName: string): Promise<boolean> {
    return (await db.run("DELETE FROM api_tokens WHERE id = ? OR name = ?", [idOrName, idOrName])) > 0;
  },
};
