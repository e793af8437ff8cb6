/**
 * Where the worker's code is: worker-main.js beside this module once
 * compiled. Tests run the TypeScript sources (vitest), which a worker
 * thread cannot load; they use the compiled copy in dist/ (turbo builds
 * before testing), found by the same relative path.
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export function workerEntry(): { url: URL; execArgv: string[] } {
  const here = new URL("./worker-main.js", import.meta.url);
  if (!import.meta.url.endsWith(".ts")) return { url: here, execArgv: [] };
  const compiled = fileURLToPath(here).replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, "$1dist$2");
  if (!existsSync(compiled))
    throw new Error(
      `The scriptlet worker needs the compiled engine (${compiled}): build @berth/engine first`,
    );
  return { url: pathToFileURL(compiled), execArgv: [] };
}
