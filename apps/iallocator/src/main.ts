#!/usr/bin/env node
/**
 * The `berth-iallocator` binary. Ganeti starts a process for every
 * placement and waits for it, so start-up is most of a call: this runs the
 * command line (`cli.ts`) from the one-file bundle `berth-iallocator.cjs`
 * that `pnpm build` writes beside it (see `scripts/bundle.mjs`), with
 * V8's code cache (`code-cache.ts`), instead of resolving and compiling
 * ~190 modules of the engine and zod on every call. Without the bundle (a
 * build that ran `tsc` alone) it runs the same modules unbundled.
 */
import { fileURLToPath } from "node:url";
import type * as Bundle from "./bundle.js";
import { type LoadedBundle, loadBundle } from "./code-cache.js";

const BUNDLE = fileURLToPath(new URL("berth-iallocator.cjs", import.meta.url));

async function load(): Promise<LoadedBundle<typeof Bundle> | { exports: typeof Bundle; cache: "unbundled" }> {
  try {
    return loadBundle<typeof Bundle>(BUNDLE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return { exports: await import("./bundle.js"), cache: "unbundled" };
  }
}

const loaded = await load();
process.exitCode = await loaded.exports.main(process.argv.slice(2));
// Only after an answer, so the cache holds what a call runs; a missing or stale one costs this call a few ms.
if (process.exitCode === 0 && (loaded.cache === "absent" || loaded.cache === "rejected")) loaded.saveCache();
