import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context, Hono } from "hono";
import { notFoundHttp } from "../http/http-error.js";
import type { ServerEnv } from "../http/server-env.js";

/** Where berthd serves the web console. */
export const CONSOLE_PATH = "/ui/";

/**
 * What a page of the console may load: only berthd itself (scripts,
 * styles, the API). Inline styles are allowed because the editor
 * (CodeMirror) injects its theme as <style> elements; no inline script is.
 */
const PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function pageHeaders(c: Context<ServerEnv>, path: string): void {
  // Vite names every asset by its content hash: cache forever. index.html names them, so revalidate it.
  const hashed = path.includes("/assets/");
  c.header("Cache-Control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
  c.header("X-Content-Type-Options", "nosniff");
  if (!hashed) {
    c.header("Content-Security-Policy", PAGE_POLICY);
    c.header("Referrer-Policy", "no-referrer");
  }
}

/**
 * The web console at /ui/: the built assets of `apps/web`, served on every
 * listener (TCP and the Unix socket) without a token, since the page must
 * load before its user signs in; everything it shows comes from /1.0 with
 * the token the user gives. Paths without a file extension are the
 * console's own routes (/ui/cluster, /ui/instances/p/n) and get index.html;
 * a missing asset is a 404 in the LXD envelope, as an unknown API URL.
 *
 * Registered before authentication. With `dir` undefined (the console was
 * not built), /ui/ answers 404 saying how to build it.
 */
export function registerConsole(app: Hono<ServerEnv>, dir: string | undefined): void {
  app.get("/ui", (c) => c.redirect(CONSOLE_PATH, 301));
  if (dir === undefined || !existsSync(join(dir, "index.html"))) {
    app.get("/ui/*", () => {
      throw notFoundHttp(
        "The web console is not built into this berthd: run `pnpm build` (it builds apps/web) and restart berthd",
      );
    });
    return;
  }
  const onFound = (path: string, c: Context<ServerEnv>) => pageHeaders(c, path);
  app.get(
    "/ui/*",
    serveStatic<ServerEnv>({
      root: dir,
      rewriteRequestPath: (path) => path.slice("/ui".length),
      precompressed: true,
      onFound,
    }),
  );
  const page = serveStatic<ServerEnv>({ path: join(dir, "index.html"), precompressed: true, onFound });
  app.get("/ui/*", (c, next) => {
    const last = c.req.path.slice(c.req.path.lastIndexOf("/") + 1);
    // Answered here, not by the API's 404 further on: that one sits behind authentication.
    if (last.includes(".")) throw notFoundHttp(`The web console has no file ${c.req.path}`);
    return page(c, next);
  });
}
