import { existsSync } from "node:fs";
import { parseStoreUrl } from "@berth/adapter-sqlite";
import { FileTokenStore } from "../auth/file-token-store.js";
import type { TokenStore } from "../auth/token-store.js";
import { importEach, markImported } from "./import-once.js";

/**
 * Where berthd kept tokens before they moved into the database: beside a
 * database file (`berth.db.tokens.json`), or `BERTH_TOKENS_FILE` for a
 * remote database. Undefined when there is no such file to look for.
 */
export function legacyTokenFileFor(db: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const location = parseStoreUrl(db);
  if (location.kind === "file") return `${location.path}.tokens.json`;
  if (location.kind === "remote") return env.BERTH_TOKENS_FILE;
  return undefined;
}

/**
 * Moves tokens from an old token file into the database, once: every token
 * whose name is not in the database yet is copied (hashes as they are, so
 * existing secrets keep working), then the file is renamed to
 * `<file>.imported` so it is never read again (a token revoked later must
 * not come back). Several servers starting together are fine: a name
 * already taken is skipped, and only one rename succeeds.
 */
export async function importLegacyTokens(tokens: TokenStore, file: string | undefined): Promise<number> {
  if (file === undefined || !existsSync(file)) return 0;
  const known = new Set((await tokens.list()).map((t) => t.name));
  const records = (await new FileTokenStore(file).list()).filter((r) => !known.has(r.name));
  const imported = await importEach(records, (record) => tokens.create(record));
  markImported(file);
  return imported;
}
