/**
 * The request's logger is made on first use, and every line about a request
 * carries its id once: the handler's own lines (through `requestLog`) and
 * the access line (which carries `req_id` itself), on berthd's real logger
 * and a real Node HTTP server on loopback.
 */
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../daemon/logging.js";
import { ServerMetrics } from "../metrics/server-metrics.js";
import { accessLog } from "../middleware/access-log.js";
import { requestId } from "./request-id.js";
import { requestLog } from "./request-log.js";
import type { ServerEnv } from "./server-env.js";

const lines: string[] = [];
const destination = new Writable({
  write(chunk, _encoding, done) {
    lines.push(
      ...String(chunk)
        .split("\n")
        .filter((line) => line !== ""),
    );
    done();
  },
});

function app(): Hono<ServerEnv> {
  const hono = new Hono<ServerEnv>();
  hono.use(requestId(64));
  hono.use(accessLog(createLogger({ destination }), new ServerMetrics()));
  hono.get("/quiet", (c) => c.text(String(c.get("log") === undefined)));
  hono.get("/talks", (c) => {
    const made = requestLog(c);
    made?.info("first");
    requestLog(c)?.info({ same: requestLog(c) === made }, "second");
    return c.text("ok");
  });
  hono.get("/secret", (c) => {
    requestLog(c)?.info({ body: { token: "tok-xyz", secret: "sec-xyz" } }, "told");
    return c.text("ok");
  });
  return hono;
}

type Server = ReturnType<typeof createAdaptorServer>;
let server: Server;
let base: string;
beforeAll(async () => {
  server = createAdaptorServer({ fetch: app().fetch });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The lines logged for request `id`, once its access line (written after the answer) is out. */
async function linesOf(id: string): Promise<string[]> {
  for (
    let i = 0;
    i < 100 && !lines.some((l) => l.includes(`"req_id":"${id}"`) && l.includes('"msg":"request"'));
    i++
  )
    await new Promise((resolve) => setTimeout(resolve, 10));
  return lines.filter((line) => line.includes(`"req_id":"${id}"`));
}

describe("requestLog", () => {
  it("is not made for a request that logs nothing but its access line, which carries the id once", async () => {
    const answer = await fetch(`${base}/quiet`, { headers: { "x-request-id": "quiet-1" } });
    expect(await answer.text()).toBe("true");
    const [access, ...more] = await linesOf("quiet-1");
    expect(more).toEqual([]);
    expect(access).toMatch(
      /^\{"level":30,"time":"[^"]+","service":"berthd","req_id":"quiet-1","method":"GET","path":"\/quiet","route":"\/quiet","status":200,"ms":[\d.]+,"msg":"request"\}$/,
    );
  });

  it("is made once per request, and its lines and the access line each carry the id once", async () => {
    await fetch(`${base}/talks`, { headers: { "x-request-id": "talks-1" } });
    const logged = await linesOf("talks-1");
    expect(logged.map((line) => JSON.parse(line).msg)).toEqual(["first", "second", "request"]);
    expect(JSON.parse(logged[1] as string).same).toBe(true);
    for (const line of logged) expect(line.split('"req_id"').length).toBe(2);
  });

  it("keeps the redaction on a request's own lines, while its access line goes out without it", async () => {
    await fetch(`${base}/secret`, {
      headers: { "x-request-id": "secret-1", authorization: "Bearer tok-xyz" },
    });
    const [told, access] = await linesOf("secret-1");
    expect(JSON.parse(told as string).body).toEqual({ token: "[redacted]", secret: "[redacted]" });
    expect(told).not.toMatch(/tok-xyz|sec-xyz/);
    expect(JSON.parse(access as string)).toMatchObject({ msg: "request", route: "/secret", status: 200 });
  });
});
