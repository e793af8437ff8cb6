import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Where the web console's built assets are: `apps/web/dist` of the
 * workspace, found through the `@berth/web` package berthd depends on
 * (so a moved checkout or an installed copy finds its own). Undefined
 * when the console was not built (`pnpm build` builds it before berthd).
 */
export function defaultConsoleDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve("@berth/web/package.json");
    const dist = join(dirname(manifest), "dist");
    return existsSync(join(dist, "index.html")) ? dist : undefined;
  } catch {
    return undefined;
  }
}
