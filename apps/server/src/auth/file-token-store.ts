import { existsSync, readFileSync, statSync } from "node:fs";
import { writePrivateJson } from "./private-json-file.js";
import type { TokenRecord, TokenStore } from "./token-store.js";

interface TokenFile {
  version: 1;
  tokens: TokenRecord[];
}

/**
 * Tokens in a JSON file beside the database (`berth.db.tokens.json`, mode
 * 0600), holding only hashes. Every berthd process on the machine shares the
 * file: it is re-read whenever its modification time changes, and written by
 * atomic rename so a reader never sees half a file.
 */
export class FileTokenStore implements TokenStore {
  readonly path: string;
  #cache: TokenRecord[] = [];
  #cachedStamp = "";

  constructor(path: string) {
    this.path = path;
  }

  #stamp(): string {
    if (!existsSync(this.path)) return "absent";
    const st = statSync(this.path);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  }

  #load(): TokenRecord[] {
    const stamp = this.#stamp();
    if (stamp === this.#cachedStamp) return this.#cache;
    if (stamp === "absent") {
      this.#cache = [];
    } else {
      const parsed = JSON.parse(readFileSync(this.path, "utf8")) as TokenFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.tokens)) {
        throw new Error(`${this.path} is not a berth token file (version 1)`);
      }
      this.#cache = parsed.tokens;
    }
    this.#cachedStamp = stamp;
    return this.#cache;
  }

  #save(tokens: TokenRecord[]): void {
    const file: TokenFile = { version: 1, tokens };
    writePrivateJson(this.path, file);
    this.#cache = tokens;
    this.#cachedStamp = this.#stamp();
  }

  async create(record: TokenRecord): Promise<void> {
    const tokens = this.#load();
    this.#save([...tokens, record]);
  }

  async findByHash(hash: string): Promise<TokenRecord | undefined> {
    return this.#load().find((t) => t.hash === hash);
  }

  async list(): Promise<TokenRecord[]> {
    return [...this.#load()];
  }

  async setProjects(id: string, projects: string[]): Promise<boolean> {
    const tokens = this.#load();
    if (!tokens.some((t) => t.id === id)) return false;
    this.#save(tokens.map((t) => (t.id === id ? { ...t, projects: [...projects] } : t)));
    return true;
  }

  async delete(idOrName: string): Promise<boolean> {
    const tokens = this.#load();
    const kept = tokens.filter((t) => t.id !== idOrName && t.name !== idOrName);
    if (kept.length === tokens.length) return false;
    this.#save(kept);
    return true;
  }
}
