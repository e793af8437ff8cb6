/**
 * Runs a CommonJS bundle with V8's code cache kept beside it
 * (`FILE.cache`): V8 then deserializes the bundle's compiled functions
 * instead of parsing and compiling them on every call, about 15 ms of the
 * ~80 ms a Ganeti call costs. Node 20 has no compile cache of its own
 * (`module.enableCompileCache` came in Node 22), so this does by hand what
 * Node's CommonJS loader does, with `cachedData` added.
 *
 * The cache is only ever a shortcut. V8 rejects one made by another V8
 * version or with other flags (after a Node upgrade, say), but checks the
 * source by its length alone, so the file starts with the SHA-256 of the
 * source it was made from, and one made from other source is rejected
 * here. The bundle is then compiled from source as usual, and `saveCache`
 * writes a fresh cache for the next call. (The engine loads `node:crypto`
 * in any case, so the hash costs a fraction of a millisecond.)
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

/** What became of the cache on loading: used, refused by V8, or not there. */
export type CacheState = "accepted" | "rejected" | "absent";

export interface LoadedBundle<Exports> {
  exports: Exports;
  cache: CacheState;
  /**
   * Writes the code of every function compiled so far (call it after the
   * work, so the cache holds what a call runs, not only the top level).
   * Best effort: an install directory we may not write to keeps its cache.
   */
  saveCache(): void;
}

export const cachePathOf = (bundlePath: string) => `${bundlePath}.cache`;

const DIGEST_BYTES = 32;
const digestOf = (source: string) => createHash("sha256").update(source).digest();

/** The cache file's V8 data, or `"absent"`, or `"rejected"` when it was made from other source. */
function readCache(path: string, digest: Buffer): Buffer | "absent" | "rejected" {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return "absent";
  }
  return file.subarray(0, DIGEST_BYTES).equals(digest) ? file.subarray(DIGEST_BYTES) : "rejected";
}

/** Node's own CommonJS wrapper, so the bundle runs as if `require`d. */
type ModuleWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/** Loads and runs the bundle at `path` (throws as `readFileSync` does when it is missing). */
export function loadBundle<Exports>(path: string): LoadedBundle<Exports> {
  const source = readFileSync(path, "utf8");
  const cachePath = cachePathOf(path);
  const digest = digestOf(source);
  const cached = readCache(cachePath, digest);
  const cachedData = typeof cached === "string" ? undefined : cached;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: path,
    cachedData,
  });
  const bundleModule = { exports: {} };
  const run = script.runInThisContext() as ModuleWrapper;
  run(bundleModule.exports, createRequire(path), bundleModule, path, dirname(path));
  return {
    exports: bundleModule.exports as Exports,
    cache: typeof cached === "string" ? cached : script.cachedDataRejected ? "rejected" : "accepted",
    saveCache() {
      // A private name, then an atomic rename: concurrent calls never read half a cache.
      const partial = `${cachePath}.${process.pid}.partial`;
      try {
        writeFileSync(partial, Buffer.concat([digest, script.createCachedData()]));
        renameSync(partial, cachePath);
      } catch {
        rmSync(partial, { force: true });
      }
    },
  };
}
