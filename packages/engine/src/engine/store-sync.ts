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
const CATALOG_TABLES: ReadonlySet<PropertyKey> = new Set([
  "groups",
  "projects",
  "profiles",
  "flavors",
  "images",
  "placementGroups",
  "resourceClasses",
]);
const TABLE_WRITES: ReadonlySet<PropertyKey> = new Set(["create", "update", "delete"]);

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
  return wrapWrites(store, STORE_WRITES, afterWrite, (key, value) =>
    CATALOG_TABLES.has(key)
      ? wrapWrites(value as CatalogTable<object>, TABLE_WRITES, afterWrite, (_key, inner) => inner)
      : value,
  );
}
