/** A stored API token: only the hash of its secret is kept. */
export interface TokenRecord {
  id: string;
  name: string;
  description?: string;
  /** Hex SHA-256 of the secret. */
  hash: string;
  admin: boolean;
  /** Projects a restricted token may use; empty for admin tokens. */
  projects: string[];
  created_at: string;
}

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
