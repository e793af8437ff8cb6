/**
 * `pnpm check:layers` (scripts/verify.sh runs it right after biome): the
 * package dependency direction of the README's "Layout" section, and no
 * import cycles, neither between modules nor between the top-level folders
 * ("rooms") of berthd's and the engine's sources. It reads the TypeScript
 * sources (tsconfig.layers.json maps every `@berth/*` import to its package's
 * `src/`), so it needs no build.
 */

/** Every workspace package or app, as the path its sources live under. */
const PACKAGES = {
  apiTypes: "packages/api-types/",
  resources: "packages/resources/",
  starlark: "packages/starlark/",
  engine: "packages/engine/",
  sqlCore: "packages/sql-core/",
  adapters: "packages/adapter-(sqlite|postgres)/",
  postgresTestServer: "packages/postgres-test-server/",
  client: "packages/client/",
  server: "apps/server/",
  cli: "apps/cli/",
  web: "apps/web/",
  iallocator: "apps/iallocator/",
  bench: "bench/",
};

/** Anchors a path prefix: `^(packages/a/|packages/b/)`. */
const under = (...prefixes) => `^(${prefixes.join("|")})`;

/** Any workspace package's sources except the ones named (and the importer's own). */
const workspaceExcept = (...allowed) => ({
  path: under(...Object.values(PACKAGES)),
  pathNot: under(...allowed),
});

/** The packages a package may import, and nothing else of the workspace. */
function mayImportOnly(name, from, ...allowed) {
  return {
    name: `${name}-imports-only-its-layers`,
    comment: `${from} may import only ${allowed.join(", ") || "no other workspace package"} (README, "Layout").`,
    severity: "error",
    from: { path: `^${from}` },
    to: workspaceExcept(from, ...allowed),
  };
}

/** A database driver or HTTP library, resolved into node_modules or (not installed there) left as its bare name. */
const DRIVERS_AND_HTTP =
  "(^|node_modules/)(pg|@libsql/client|libsql|drizzle-orm|hono|@hono/[^/]+|undici|ws)(/|$)";

/**
 * The top-level folders ("rooms") of `src` import each other one way only.
 * dependency-cruiser's folder scope counts a folder's imports together with
 * its subfolders', so a cycle through a subfolder is one of its room's.
 */
const roomsAcyclic = (name, src) => ({
  name,
  comment: `No top-level folder of ${src} imports one that imports it back.`,
  severity: "error",
  scope: "folder",
  from: { path: `^${src}[^/]+$` },
  to: { path: `^${src}`, circular: true },
});

module.exports = {
  forbidden: [
    mayImportOnly("api-types", PACKAGES.apiTypes),
    mayImportOnly("resources", PACKAGES.resources, PACKAGES.apiTypes),
    mayImportOnly("starlark", PACKAGES.starlark),
    mayImportOnly("engine", PACKAGES.engine, PACKAGES.apiTypes, PACKAGES.resources, PACKAGES.starlark),
    mayImportOnly("sql-core", PACKAGES.sqlCore, PACKAGES.apiTypes, PACKAGES.resources, PACKAGES.engine),
    mayImportOnly(
      "adapters",
      PACKAGES.adapters,
      PACKAGES.apiTypes,
      PACKAGES.resources,
      PACKAGES.engine,
      PACKAGES.sqlCore,
      // For adapter-postgres's test-support/ only (the rule below).
      PACKAGES.postgresTestServer,
    ),
    mayImportOnly("postgres-test-server", PACKAGES.postgresTestServer),
    mayImportOnly("client", PACKAGES.client, PACKAGES.apiTypes),
    mayImportOnly("web", PACKAGES.web, PACKAGES.client, PACKAGES.apiTypes),
    mayImportOnly("iallocator", PACKAGES.iallocator, PACKAGES.engine),
    // apps/cli/README.md's dependency notes: @berth/resources for sizes and
    // capacity, the engine only for `berth scriptlet check` (loaded on demand).
    mayImportOnly(
      "cli",
      PACKAGES.cli,
      PACKAGES.client,
      PACKAGES.apiTypes,
      PACKAGES.resources,
      PACKAGES.engine,
    ),
    {
      name: "cli-imports-the-engine-only-to-check-scriptlets",
      comment:
        "The CLI talks to berthd through @berth/client; only `berth scriptlet check` compiles locally.",
      severity: "error",
      from: { path: `^${PACKAGES.cli}`, pathNot: `^${PACKAGES.cli}src/commands/scriptlet\\.ts$` },
      to: { path: `^${PACKAGES.engine}` },
    },
    {
      name: "starlark-is-the-engines-only",
      comment: 'Only the engine runs Starlark (README, "Layout"); everything else goes through the engine.',
      severity: "error",
      from: { pathNot: under(PACKAGES.engine, PACKAGES.starlark) },
      to: { path: `^${PACKAGES.starlark}` },
    },
    {
      name: "postgres-test-server-is-for-tests-and-benchmarks",
      comment:
        "The throw-away PostgreSQL server (initdb, pg_ctl) serves tests, their test-support/ and the bench; no shipped code starts one.",
      severity: "error",
      from: { pathNot: under(PACKAGES.postgresTestServer, "packages/[^/]+/test-support/", PACKAGES.bench) },
      to: { path: `^${PACKAGES.postgresTestServer}` },
    },
    {
      name: "server-imports-no-other-app",
      comment: "berthd assembles packages; it never imports the CLI, the iallocator or the bench.",
      severity: "error",
      from: { path: `^${PACKAGES.server}` },
      to: { path: under(PACKAGES.cli, PACKAGES.iallocator, PACKAGES.bench) },
    },
    {
      name: "sql-core-imports-no-driver",
      comment:
        "What both SQL dialects share runs through each adapter's runner port, never a driver of its own.",
      severity: "error",
      from: { path: `^${PACKAGES.sqlCore}` },
      to: { path: "(^|node_modules/)(pg|@libsql/client|libsql|hono|@hono/[^/]+|undici|ws)(/|$)" },
    },
    {
      name: "engine-imports-no-driver-or-http-library",
      comment: 'The engine never imports a database driver or an HTTP library (README, "Layout").',
      severity: "error",
      from: { path: `^${PACKAGES.engine}` },
      to: { path: DRIVERS_AND_HTTP },
    },
    {
      name: "no-module-cycles",
      comment: "No module imports one that imports it back, directly or through others.",
      severity: "error",
      from: { path: under("packages/", "apps/") },
      to: { circular: true },
    },
    roomsAcyclic("server-rooms-acyclic", "apps/server/src/"),
    roomsAcyclic("engine-rooms-acyclic", "packages/engine/src/"),
    {
      name: "server-root-files-are-entry-points",
      comment:
        "apps/server/src/ holds only the entry points (main.ts, index.ts), and nothing imports them, so no room depends on the root.",
      severity: "error",
      from: { path: "^apps/server/src/" },
      to: { path: "^apps/server/src/[^/]+$" },
    },
    {
      name: "no-unresolvable-imports",
      comment:
        "An import the check cannot follow would hide its dependencies (a path missing in tsconfig.layers.json?).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Test files are left out: nothing imports one, so none can close a module
    // cycle, and a test beside its code may use the shared fixtures (testing/,
    // which start a whole berthd) without its room depending on everything.
    // (So a test's imports are not held to the direction either; the fixtures are.)
    exclude: { path: "(^|/)(dist|coverage|node_modules)/|\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.layers.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
