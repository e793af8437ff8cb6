// Writes dist/berthd/, the berthd that ships: berthd.js (what the package's `berthd` bin, the
// repository's ./berthd and the bench start), worker-main.js (the scriptlet worker), the chunks
// they share and the migrations the stores read. Run by `pnpm build` after tsc, from its output.
//
// Why: unbundled, berthd resolved, read and compiled ~880 ES modules at every start, ~0.8 s and
// ~110 MiB before it opened its database (issue #30). One file of them starts sooner and smaller.
//
// What stays outside: libsql, a native module (berthd depends on it so the bundle resolves it);
// selfsigned (see `external`); the optional native helpers of ws and pg; and whatever a module
// finds by its own location (`import.meta.url`), which the layout below keeps in place:
//  - the engine's scriptlet pool starts ./worker-main.js beside the module that asks: every
//    output file is in dist/berthd/, and the worker is written there;
//  - the stores read their migrations at ../../drizzle from their modules: those modules ask
//    from a mirrored path (dist/berthd/adapter-sqlite/dist/...), and drizzle/ is copied beside;
//  - the console's files are found through @berth/web from apps/server, where the bundle is.
import { cpSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(packageDir, "dist/berthd");

/** The root of a workspace package, from its main module (dist/index.js). */
const packageRoot = (name) => resolve(dirname(fileURLToPath(import.meta.resolve(name))), "..");

/** Packages whose modules read files by their own location, and those files' folders. */
const LOCATED = [
  { root: packageRoot("@berth/adapter-sqlite"), folders: ["drizzle"] },
  { root: packageRoot("@berth/adapter-postgres"), folders: ["drizzle"] },
];

/** A located package's module sees `import.meta.url` as its mirrored place in dist/berthd/. */
const mirrorLocation = (path, contents) => {
  const owner = LOCATED.find(({ root }) => path.startsWith(`${root}/dist/`));
  if (owner === undefined || !contents.includes("import.meta.url")) return contents;
  const mirrored = `./${relative(dirname(owner.root), path)}`;
  return contents.replaceAll("import.meta.url", `new URL(${JSON.stringify(mirrored)}, import.meta.url).href`);
};

/**
 * Our modules import zod's `z`, a namespace zod re-exports as a value: esbuild then keeps all of
 * it (~780 KB, ~300 KB of it its 63 locales, `fromJSONSchema`...) for berthd to compile at every
 * start. Imported as a namespace itself (`import * as z`), `z.object` is a property read esbuild
 * follows to the one export, and what no module reads stays out. The English locale zod
 * configures on import stays, so its default messages are unchanged.
 */
const ZOD_NAMED_Z = 'import { z } from "zod";';
const importZodAsNamespace = (contents) => contents.replaceAll(ZOD_NAMED_Z, 'import * as z from "zod";');

/** Our own compiled modules (this package's and the workspace packages' dist/), rewritten. */
const ourModule = (path) => path.startsWith(`${packageDir}/dist/`) || /\/packages\/[^/]+\/dist\//.test(path);
const rewrittenSources = {
  name: "rewritten-sources",
  setup(bundler) {
    bundler.onLoad({ filter: /\.js$/ }, (args) => {
      if (!ourModule(args.path)) return undefined;
      const original = readFileSync(args.path, "utf8");
      const contents = importZodAsNamespace(mirrorLocation(args.path, original));
      if (contents === original) return undefined;
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

rmSync(OUT_DIR, { recursive: true, force: true });
const engineDist = dirname(fileURLToPath(import.meta.resolve("@berth/engine")));
const result = await build({
  entryPoints: [
    { in: join(packageDir, "dist/main.js"), out: "berthd" },
    { in: join(engineDist, "scriptlet/workers/worker-main.js"), out: "worker-main" },
  ],
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Class and function names as in the sources: stack traces, error texts, `constructor.name`.
  keepNames: true,
  // selfsigned: imported only to create a certificate, and CommonJS: from a chunk of its own it
  // would offer only `default`, where Node's import gives `generate` (server-certificate.ts).
  external: ["libsql", "selfsigned", "pg-native", "bufferutil", "utf-8-validate"],
  // The CommonJS packages inside (pino, pg, prom-client...) call `require` for Node's own modules.
  banner: {
    js: 'import { createRequire as __berthdCreateRequire } from "node:module";\nconst require = __berthdCreateRequire(import.meta.url);',
  },
  plugins: [rewrittenSources],
  logLevel: "silent",
});
if (result.warnings.length > 0)
  throw new Error(`bundle: ${result.warnings.map((w) => w.text).join("; ")} (a bundle that may differ)`);
for (const { root, folders } of LOCATED)
  for (const folder of folders)
    cpSync(join(root, folder), join(OUT_DIR, relative(dirname(root), root), folder), { recursive: true });
console.log(`bundle: ${relative(packageDir, OUT_DIR)}/berthd.js`);
