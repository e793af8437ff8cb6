/**
 * Keeping several engines that share one store in step. The store's change
 * counter (`Store.changeVersion`) moves by one with every member, catalog
 * or config write; an engine reads it before each operation and re-reads
 * members, catalog mirrors and config only when it moved. To tell its own
 * writes from other processes' without re-reading after each of them, the
 * engine writes through `trackOwnWrites`: after a write, a counter that moved
 * by exactly one since the engine last looked moved because of that write.
 */
import type { CatalogTable, Store } from "../store/port.js";

/** Store methods that may move the change counter. */
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
 * Writes that do not move the counter must not be noted: a heartbeat
 * followed by another process's change would otherwise look like "moved by
 * one since I looked" and that change would be missed.
 */
function movesCounter(key: PropertyKey, args: unknown[]): boolean {
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
  afterWrite: () => Promise<void>,
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
              if (movesCounter(key, args)) await afterWrite();
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
export function trackOwnWrites(store: Store, afterWrite: () => Promise<void>): Store {
  if (store.changeVersion === undefined) return store;
  return wrapWrites(store, STORE_WRITES, afterWrite, (key, value) =>
    CATALOG_TABLES.has(key)
      ? wrapWrites(value as CatalogTable<object>, TABLE_WRITES, afterWrite, (_key, inner) => inner)
      : value,
  );
}
