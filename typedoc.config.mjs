// @ts-check
/**
 * The API reference for embedders (`pnpm docs:api`, HTML in docs/api/, not
 * checked in): the public entry points of @berth/engine, @berth/client and the
 * two Store adapters, straight from their sources. Any warning fails the run,
 * an undocumented export included, so `scripts/verify.sh` runs it as a check.
 */
import { readFileSync } from "node:fs";

/**
 * The route table is generated from berthd's routes (packages/client/src/routes.generated.ts)
 * and documented as a whole by its own comment: each operation's entry is data, not API.
 */
function generatedRouteEntries() {
  const source = readFileSync(new URL("./packages/client/src/routes.generated.ts", import.meta.url), "utf8");
  const operations = [...source.matchAll(/^ {2}(\w+): \{ method:/gm)].map((match) => match[1]);
  return operations.flatMap((operation) => [
    `@berth/client.routes.__type.${operation}`,
    ...["method", "path", "query", "body"].map(
      (field) => `@berth/client.routes.__type.${operation}.__type.${field}`,
    ),
  ]);
}

/** @type {Partial<import("typedoc").TypeDocOptions>} */
export default {
  name: "Berth embedding API",
  entryPoints: [
    "packages/engine/src/index.ts",
    "packages/engine/src/store-contract.ts",
    "packages/client/src/index.ts",
    "packages/client/src/node/index.ts",
    "packages/adapter-sqlite/src/index.ts",
    "packages/adapter-postgres/src/index.ts",
  ],
  tsconfig: "tsconfig.typedoc.json",
  // Type errors are `pnpm typecheck`'s to report; skipping them here halves the run.
  skipErrorChecking: true,
  out: "docs/api",
  readme: "none",
  excludePrivate: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  // Source links need a hosted git remote; a clone (CI's, or one without "origin")
  // has none, TypeDoc warns, and a warning fails the check. The reference names
  // each symbol's package and module instead.
  disableSources: true,
  // Without this TypeDoc only asks for comments in the root package ("berth"), which exports nothing.
  packagesRequiringDocumentation: [
    "@berth/engine",
    "@berth/client",
    "@berth/adapter-sqlite",
    "@berth/adapter-postgres",
  ],
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  // The one exception to "every export documented": the generated route table's entries.
  intentionallyNotDocumented: generatedRouteEntries(),
};
