import { createRequire } from "node:module";

/** The package version, read from package.json at run time so it never drifts. */
export const CLI_VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string })
  .version;
