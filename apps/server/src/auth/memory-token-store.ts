import type { TokenRecord, TokenStore } from "./token-store.js";

/** Token store for tests and for `--db :memory:`; lives and dies with the process. */
export class MemoryTokenStore implements TokenStore {
  readonly #byId = new Map<string, TokenRecord>();

  async create(record: TokenRecord): Promise<void> {
    this.#byId.set(record.id, { ...record, projects: [...record.projects] });
  }

  async findByHash(hash: string): Promise<TokenRecord | undefined> {
    for (const record of this.#byId.values()) if (record.hash === hash) return record;
    return undefined;
  }

  async list(): Promise<TokenRecord[]> {
    return [...this.#byId.values()];
  }

  async setProjects(id: string, projects: string[]): Promise<boolean> {
    const record = this.#byId.get(id);
    if (record === undefined) return false;
    this.#byId.set(id, { ...record, projects: [...projects] });
    return true;
  }

  async delete(idOrName: string): Promise<boolean> {
    for (const record of this.#byId.values()) {
      if (record.id === idOrName || record.name === idOrName) return this.#byId.delete(record.id);
    }
    return false;
  }
}
