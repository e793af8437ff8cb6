import type { ApiTokenRecord } from "@berth/sql-core";

/** A stored API token: only the hash of its secret is kept. The one record every token store uses. */
export type TokenRecord = ApiTokenRecord;

/** Where berthd keeps tokens; shared by every process using the same database. */
export interface TokenStore {
  create(record: TokenRecord): Promise<void>;
  findByHash(hash: string): Promise<TokenRecord | undefined>;
  list(): Promise<TokenRecord[]>;
  /** Replaces a token's projects (a project renamed or deleted); false when no token has that id. */
  setProjects(id: string, projects: string[]): Promise<boolean>;
  /** Returns false when no token has that id or name. */
  delete(idOrName: string): Promise<boolean>;
}
