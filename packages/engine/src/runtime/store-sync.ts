/**
 * An engine's own member, catalog and config writes, noticed as they
 * happen: the engine writes through `trackOwnWrites`, which calls
 * `afterWrite` after each, so derived caches (expanded bodies, profiles)
 * are dropped at once and the change feed is read before the next plan,
 * even on a store whose feed does not wake its own writer.
 */
import type { CatalogTable, Store } from "../store/port.js";

/** Store methods that write a change-feed entry. */
const STORE_WRITES: ReadonlySet<PropertyKey> = new Set([
  "createMember",
  "updateMember",
  "setInventories",
  "deleteMember",
  "setConfig",
]);
const TABLE_WRITES: ReadonlySet<PropertyKey> = new Set(["create", "update", "delete"]);
/** The store's tables and their writing methods. */
const TABLES: ReadonlyMap<PropertyKey, ReadonlySet<PropertyKey>> = new Map([
  ...["groups", "projects", "profiles", "flavors", "images", "placementGroups", "resourceClasses"].map(
    (table) => [table, TABLE_WRITES] as const,
  ),
  // Placement's tables: the provider model (providers/provider-model.ts) follows them through the feed.
  ["providers", TABLE_WRITES],
  ["traits", TABLE_WRITES],
  ["consumers", new Set(["claim"])],
]);

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * Heartbeats (and reported state) write no feed entry: every member sends
 * one every few seconds, and noting them would make every placement read
 * the feed.
 */
function writesFeedEntry(key: PropertyKey, args: unknown[]): boolean {
  if (key !== "updateMember") return true;
  const patch = (args[1] ?? {}) as Record<string, unknown>;
  return Object.keys(patch).some((field) => field !== "lastHeartbeat" && field !== "state");
}

/**
 * Wraps `target` so every call of a method in `writes` runs `afterWrite`
 * once it settled; other methods are bound to the target (so the store's
 * own `this` accesses never go through the proxy) and cached.
 */
function wrapWrites<T extends object>(
  target: T,
  writes: ReadonlySet<PropertyKey>,
  afterWrite: () => void,
  inner: (key: PropertyKey, value: unknown) => unknown,
): T {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key) {
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const value = Reflect.get(object, key, object) as unknown;
      let out: unknown = inner(key, value);
      // Plain values (say a store's `location`) are read live, never cached.
      if (out === value && typeof value !== "function") return value;
      if (out === value) {
        const method = value as AnyMethod;
        out = writes.has(key)
          ? async (...args: unknown[]) => {
              const result = await method.apply(object, args);
              if (writesFeedEntry(key, args)) afterWrite();
              return result;
            }
          : method.bind(object);
      }
      cache.set(key, out);
      return out;
    },
  });
}

/** The store as the engine uses it: writes report themselves through `afterWrite`. */
export function trackOwnWrites(store: Store, afterWrite: () => void): Store {
  if (store.feed === undefined) return store;
  return wrapWrites(store, STORE_WRITES, afterWrite, (key, value) => {
    const writes = TABLES.get(key);
    return writes === undefined
      ? value
      : wrapWrites(value as CatalogTable<object>, writes, afterWrite, (_key, inner) => inner);
  });
}
