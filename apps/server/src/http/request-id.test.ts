/**
 * The request id on a real Node HTTP server on loopback (where it is read
 * from Node's parsed headers) and through `app.request()` (the fetch
 * request): a sane client id is kept and echoed, anything else replaced by
 * a UUID, and handlers see the id that is echoed.
 */
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestId } from "./request-id.js";
import type { ServerEnv } from "./server-env.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function appWithRequestId(): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.use(requestId(16));
  app.get("/id", (c) => c.text(c.get("requestId")));
  return app;
}

type Server = ReturnType<typeof createAdaptorServer>;
let server: Server;
let base: string;
beforeAll(async () => {
  server = createAdaptorServer({ fetch: appWithRequestId().fetch });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe.each([
  ["a Node server", (headers: Record<string, string>) => fetch(`${base}/id`, { headers })],
  ["app.request()", (headers: Record<string, string>) => appWithRequestId().request("/id", { headers })],
])("request id on %s", (_where, send) => {
  it("keeps and echoes a sane id sent by the client", async () => {
    const response = await send({ "x-request-id": "abc-DEF_1=" });
    expect(response.headers.get("x-request-id")).toBe("abc-DEF_1=");
    expect(await response.text()).toBe("abc-DEF_1=");
  });

  it.each([
    ["too long", "a".repeat(17)],
    ["with other characters", "abc def;"],
    ["empty", ""],
  ])("replaces an id %s with a UUID", async (_why, sent) => {
    const response = await send({ "x-request-id": sent });
    const echoed = response.headers.get("x-request-id");
    expect(echoed).toMatch(UUID);
    expect(await response.text()).toBe(echoed);
  });

  it("gives a request without an id a fresh UUID each time", async () => {
    const first = (await send({})).headers.get("x-request-id");
    const second = (await send({})).headers.get("x-request-id");
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });
});
