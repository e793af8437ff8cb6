import type { ApiResult, BerthClient } from "./berth-client.js";

export interface ScopeOptions {
  /** Project for project-scoped collections; defaults to the client's project, then "default". */
  project?: string;
}

/** The CRUD verbs every LXD-style collection shares (`/1.0/profiles`, `/1.0/flavors`, ...). */
export interface Collection<T, Post, Put, Patch> {
  /** Names (parsed from the URLs the server lists). */
  names(options?: ScopeOptions): Promise<string[]>;
  list(options?: ScopeOptions): Promise<T[]>;
  get(name: string, options?: ScopeOptions): Promise<T>;
  create(body: Post, options?: ScopeOptions): Promise<ApiResult<unknown>>;
  put(name: string, body: Put, options?: ScopeOptions): Promise<unknown>;
  patch(name: string, body: Patch, options?: ScopeOptions): Promise<unknown>;
  rename(name: string, newName: string, options?: ScopeOptions): Promise<unknown>;
  delete(name: string, options?: ScopeOptions): Promise<unknown>;
}

/** Last path segment of a listed URL, without its query: `/1.0/profiles/web?project=p` -> `web`. */
export function nameFromUrl(url: string): string {
  const path = url.split("?")[0] ?? url;
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}

export function collection<T, Post, Put, Patch>(
  client: BerthClient,
  base: string,
  projectScoped: boolean,
  renameField = "name",
): Collection<T, Post, Put, Patch> {
  const query = (options?: ScopeOptions) =>
    projectScoped ? { project: options?.project ?? client.project } : {};
  const item = (name: string) => `${base}/${encodeURIComponent(name)}`;
  return {
    names: async (options) =>
      (await client.request<string[]>("GET", base, { query: query(options) })).map(nameFromUrl),
    list: (options) => client.request<T[]>("GET", base, { query: { ...query(options), recursion: 1 } }),
    get: (name, options) => client.request<T>("GET", item(name), { query: query(options) }),
    create: (body, options) => client.call("POST", base, { query: query(options), body }),
    put: (name, body, options) => client.request("PUT", item(name), { query: query(options), body }),
    patch: (name, body, options) => client.request("PATCH", item(name), { query: query(options), body }),
    rename: (name, newName, options) =>
      client.request("POST", item(name), { query: query(options), body: { [renameField]: newName } }),
    delete: (name, options) => client.request("DELETE", item(name), { query: query(options) }),
  };
}
