/**
 * Where a store lives, decided from the one string `openStore(url)` takes.
 * Plain paths and `file:` URLs are local files (the default), `:memory:` is a
 * private in-memory database for tests, and `libsql://`, `http(s)://` and
 * `ws(s)://` reach a remote libSQL server (sqld / Turso).
 */
export type StoreLocation =
  | {
      /** A local database file. */
      kind: "file";
      /** The file's path, as given (relative paths are relative to the working directory). */
      path: string;
    }
  | {
      /** A private in-memory database, gone when the store closes. */
      kind: "memory";
    }
  | {
      /** A remote libSQL server (sqld, Turso). */
      kind: "remote";
      /** The server's URL, as given. */
      url: string;
      /** The token given with the URL (`authToken` of `parseStoreUrl`); undefined for a server that needs none. */
      authToken: string | undefined;
    };

/** A store URL `openStore` cannot use; the message names what is wrong and what would do. */
export class StoreUrlError extends Error {
  /** Like an `EngineError`'s kind, so callers that branch on kinds answer a 400-style refusal. */
  readonly kind = "invalid" as const;
  constructor(message: string) {
    super(message);
    this.name = "StoreUrlError";
  }
}

const REMOTE_SCHEMES = new Set(["libsql:", "http:", "https:", "ws:", "wss:"]);

/** Where `openStore(url)` would open the database, without opening it; throws `StoreUrlError`. */
export function parseStoreUrl(url: string, authToken?: string): StoreLocation {
  const trimmed = url.trim();
  if (trimmed === "") {
    throw new StoreUrlError("Store URL is empty: give a file path, ':memory:' or a libsql:// URL");
  }
  if (trimmed === ":memory:" || trimmed === "file::memory:") {
    return { kind: "memory" };
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(trimmed)?.[1]?.toLowerCase();
  // A single letter before ':' is a Windows drive, not a scheme.
  if (scheme === undefined || scheme.length === 2) {
    return { kind: "file", path: trimmed };
  }
  if (scheme === "file:") {
    const path = trimmed.slice("file:".length).replace(/^\/\/(localhost)?(?=\/)/, "");
    if (path === "") {
      throw new StoreUrlError(`Store URL ${JSON.stringify(url)} has no file path`);
    }
    return { kind: "file", path: decodeURIComponent(path.split("?")[0] ?? path) };
  }
  if (REMOTE_SCHEMES.has(scheme)) {
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      throw new StoreUrlError(`Store URL ${JSON.stringify(url)} is not a valid URL`);
    }
    if (parsed.hostname === "") {
      throw new StoreUrlError(`Store URL ${JSON.stringify(url)} has no host`);
    }
    return { kind: "remote", url: trimmed, authToken };
  }
  throw new StoreUrlError(
    `Unsupported store URL scheme ${JSON.stringify(scheme)}: use a file path, file:, :memory:, libsql:, http(s): or ws(s):`,
  );
}
