// Writes dist/berth-iallocator.cjs, the one file `dist/main.js` runs, and its V8 code cache
// (dist/berth-iallocator.cjs.cache). Run by `pnpm build` after tsc, from tsc's output.
//
// Why: Ganeti starts the allocator for every placement and waits for it. Unbundled, a call
// resolved and compiled ~190 modules (the engine, @berth/resources and @berth/api-types
// through their barrels, all of classic zod) for ~240 ms of CPU where `node -e 0` takes ~60.
// Bundled with esbuild, only what the allocator reaches is kept (~190 KB, of it ~30 KB of
// zod/mini); the code cache then spares parsing and compiling it.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { cachePathOf, loadBundle } from "../dist/code-cache.js";
import { generateCluster } from "../dist/testing/clusters.js";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(packageDir, "dist/berth-iallocator.cjs");

/**
 * Berth's own packages define their exports and do nothing else on import, so a module of
 * theirs that the allocator never uses is left out: without this, esbuild keeps every module
 * a barrel (`@berth/resources`, `@berth/api-types`) re-exports, and with them classic zod.
 * The test that the bundle answers exactly as the modules do (src/bundle.test.ts) holds it.
 */
const inBerthPackage = (path) => /\/packages\/[^/]+\/dist\//.test(path);
const berthModulesArePure = {
  name: "berth-modules-are-pure",
  setup(bundler) {
    bundler.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolving" || args.kind === "entry-point") return undefined;
      if (!args.path.startsWith("@berth/") && !inBerthPackage(args.importer)) return undefined;
      const resolved = await bundler.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "resolving",
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const { path, external, namespace, sideEffects } = resolved;
      return { path, external, namespace, sideEffects: inBerthPackage(path) ? false : sideEffects };
    });
  },
};

const result = await build({
  entryPoints: [join(packageDir, "dist/bundle.js")],
  outfile: OUT,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  plugins: [berthModulesArePure],
  logLevel: "silent",
});
if (result.warnings.length > 0)
  throw new Error(`bundle: ${result.warnings.map((w) => w.text).join("; ")} (a bundle that may differ)`);

/**
 * Trains the code cache: a small cluster of plain and DRBD instances, a multi-allocate and
 * an allocate on it, so the functions a call runs are compiled when the cache is written.
 */
const bundle = loadBundle(OUT);
const cluster = generateCluster({ nodes: 8, groups: 2, existing: 12, requested: 4, drbdShare: 0.5, seed: 1 });
const first = cluster.request.instances[0];
for (const request of [cluster.request, { type: "allocate", ...first }]) {
  const answer = await bundle.exports.iallocate(JSON.stringify({ ...cluster, request }));
  if (!answer.success) throw new Error(`bundle: the training ${request.type} failed: ${answer.info}`);
}
bundle.saveCache();
console.log(`bundle: ${OUT} and ${cachePathOf(OUT)}`);
