import type { ApiResult, BerthClient, OperationId } from "./berth-client.js";
import { routes } from "./routes.generated.js";

/** Options of a call on a project-scoped collection. */
export interface ScopeOptions {
  /** Project for project-scoped collections; defaults to the client's project, then "default". */
  project?: string;
}

/** Options of a PUT or PATCH: the project, and the version the write expects to replace. */
export interface WriteOptions extends ScopeOptions {
  /** The ETag of an earlier read: the server refuses the write (412) if the record changed since. */
  ifMatch?: string;
}

/** The CRUD verbs every LXD-style collection shares (`/1.0/profiles`, `/1.0/flavors`, ...). */
export interface Collection<T, Post, Put, Patch> {
  /** Names (parsed from the URLs the server lists). */
  names(options?: ScopeOptions): Promise<string[]>;
  /** Every record, in full (`?recursion=1`). */
  list(options?: ScopeOptions): Promise<T[]>;
  /** One record by name; `BerthApiError` 404 when there is none. */
  get(name: string, options?: ScopeOptions): Promise<T>;
  /** The record and its version (`etag`), for a later write with `ifMatch`. */
  getWithEtag(
    name: string,
    options?: ScopeOptions,
  ): Promise<{
    /** The record. */
    metadata: T;
    /** Its `ETag` (quoted), to send back as `ifMatch`; undefined when the server sent none. */
    etag: string | undefined;
  }>;
  /** Creates a record; the answer's `location` is its URL. */
  create(body: Post, options?: ScopeOptions): Promise<ApiResult<unknown>>;
  /** Replaces the record's editable fields (fields left out are reset). */
  put(name: string, body: Put, options?: WriteOptions): Promise<unknown>;
  /** Changes only the fields given; in config maps `""` removes a key. */
  patch(name: string, body: Patch, options?: WriteOptions): Promise<unknown>;
  /** Renames the record (refused for some while in use, e.g. a member hosting instances). */
  rename(name: string, newName: string, options?: ScopeOptions): Promise<unknown>;
  /** Deletes the record; refused (409) while something refers to it. */
  delete(name: string, options?: ScopeOptions): Promise<unknown>;
}

/** The operations behind a collection's verbs (those it lacks are absent). */
export interface CollectionOperations {
  /**
   * Lists the collection (its `project` query decides whether the collection is project-scoped).
   */
  list: OperationId;
  /** Creates a record. */
  create: OperationId;
  /** Reads one record; its path's last `:param` carries the name. */
  get: OperationId;
  /** Replaces a record (absent: the collection has no PUT). */
  put?: OperationId;
  /** Patches a record (absent: no PATCH). */
  patch?: OperationId;
  /** Renames a record (absent: no rename). */
  rename?: OperationId;
  /** Deletes a record. */
  delete: OperationId;
  /** The body field a rename sends the new name in (default `name`). */
  renameField?: string;
}

/** Last path segment of a listed URL, without its query: `/1.0/profiles/web?project=p` -> `web`. */
export function nameFromUrl(url: string): string {
  const path = url.split("?")[0] ?? url;
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * A collection over the routes named in `operations`. Which path parameter
 * carries the name, and whether the collection is project-scoped, come
 * from the route table (the server's routes), not from this code.
 */
export function collection<T, Post, Put, Patch>(
  client: BerthClient,
  operations: CollectionOperations,
): Collection<T, Post, Put, Patch> {
  const projectScoped = (routes[operations.list].query as readonly string[]).includes("project");
  const query = (options?: ScopeOptions) =>
    projectScoped ? { project: options?.project ?? client.project } : {};
  /** The item route's last `:param` carries the name (`:name`, `:fingerprint`, `:alias`). */
  const params = (operation: OperationId, name: string) => {
    const parameter = /:([A-Za-z_]+)$/.exec(routes[operation].path)?.[1] ?? "name";
    return { [parameter]: name };
  };
  const send = (
    operation: OperationId | undefined,
    verb: string,
    name: string | undefined,
    options: { query: object; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResult<unknown>> => {
    if (operation === undefined) throw new TypeError(`This collection has no ${verb}`);
    const call = client.call.bind(client) as (
      op: OperationId,
      options: object,
    ) => Promise<ApiResult<unknown>>;
    return call(operation, {
      ...(name !== undefined ? { params: params(operation, name) } : {}),
      ...options,
    });
  };
  const ifMatch = (options?: WriteOptions) =>
    options?.ifMatch !== undefined ? { "if-match": options.ifMatch } : undefined;
  return {
    names: async (options) =>
      ((await send(operations.list, "list", undefined, { query: query(options) })).metadata as string[]).map(
        nameFromUrl,
      ),
    list: async (options) =>
      (await send(operations.list, "list", undefined, { query: { ...query(options), recursion: 1 } }))
        .metadata as T[],
    get: async (name, options) =>
      (await send(operations.get, "get", name, { query: query(options) })).metadata as T,
    getWithEtag: async (name, options) => {
      const result = await send(operations.get, "get", name, { query: query(options) });
      return { metadata: result.metadata as T, etag: result.etag };
    },
    create: (body, options) => send(operations.create, "create", undefined, { query: query(options), body }),
    put: async (name, body, options) =>
      (
        await send(operations.put, "PUT", name, {
          query: query(options),
          body,
          headers: ifMatch(options) ?? {},
        })
      ).metadata,
    patch: async (name, body, options) =>
      (
        await send(operations.patch, "PATCH", name, {
          query: query(options),
          body,
          headers: ifMatch(options) ?? {},
        })
      ).metadata,
    rename: async (name, newName, options) =>
      (
        await send(operations.rename, "rename", name, {
          query: query(options),
          body: { [operations.renameField ?? "name"]: newName },
        })
      ).metadata,
    delete: async (name, options) =>
      (await send(operations.delete, "delete", name, { query: query(options) })).metadata,
  };
}
