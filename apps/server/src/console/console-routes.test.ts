import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

const INDEX = "<!doctype html><title>Berth console</title>";
const SCRIPT = `console.log(${JSON.stringify("x".repeat(2000))});`;

/** A GET over the Unix socket, as a local proxy would forward it. */
function overSocket(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the web console at /ui/", () => {
  const dir = mkdtempSync(join(tmpdir(), "berth-console-"));
  let server: TestServer;
  let unbuilt: TestServer;

  beforeAll(async () => {
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), INDEX);
    writeFileSync(join(dir, "assets", "index-abc123.js"), SCRIPT);
    writeFileSync(join(dir, "assets", "index-abc123.js.gz"), gzipSync(SCRIPT));
    server = await startTestServer({ consoleDir: dir });
    unbuilt = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await unbuilt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page without a token, with a policy that allows only berthd itself", async () => {
    const page = await server.fetch("/ui/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await page.text()).toBe(INDEX);
    // The API beside it still wants the token.
    expect((await server.fetch("/1.0/instances")).status).toBe(401);
  });

  it("redirects /ui to /ui/ and answers the console's own routes with the page", async () => {
    const bare = await server.fetch("/ui", { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/ui/");
    for (const route of ["/ui/cluster", "/ui/instances/default/web1"]) {
      const answer = await server.fetch(route);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(INDEX);
    }
  });

  it("serves hashed assets precompressed and cached for good; a missing one is a 404 envelope", async () => {
    const script = await server.fetch("/ui/assets/index-abc123.js", {
      headers: { "accept-encoding": "gzip" },
    });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-encoding")).toBe("gzip");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await script.text()).toBe(SCRIPT);
    const missing = await server.fetch("/ui/assets/nothing.js");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: "error", error_code: 404 });
    // Raw paths (fetch would normalise them away): nothing outside the console's folder is reachable.
    for (const outside of ["/ui/%2e%2e/package.json", "/ui/../index.html", "/ui/assets/..%2f..%2fetc"]) {
      expect((await overSocket(server.socketPath, outside)).status).toBe(404);
    }
  });

  it("is served on the Unix socket too", async () => {
    expect(await overSocket(server.socketPath, "/ui/")).toEqual({ status: 200, body: INDEX });
  });

  it("says how to build the console when berthd has none", async () => {
    const answer = await unbuilt.fetch("/ui/");
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: string }).error).toBe(
      "The web console is not built into this berthd: run `pnpm build` (it builds apps/web) and restart berthd",
    );
  });
});
