import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { ServerEnv } from "../http/server-env.js";
import { handleError } from "./error-handler.js";
import { shedOverload } from "./shed-overload.js";

describe("shedOverload", () => {
  it("answers the excess with 503 and Retry-After in the LXD envelope; liveness is always answered", async () => {
    const shed = shedOverload(2);
    const app = new Hono<ServerEnv>();
    app.use(shed);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get("/1.0/instances", async (c) => {
      await held;
      return c.json({ type: "sync" });
    });
    app.get("/1.0", (c) => c.json({ type: "sync" }));
    app.onError(handleError);

    const slow = [app.request("/1.0/instances"), app.request("/1.0/instances")];
    await new Promise((resolve) => setImmediate(resolve));
    expect(shed.inFlight()).toBe(2);
    const refused = await app.request("/1.0/instances");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      type: "error",
      error_code: 503,
      error: "Server busy: 2 requests in progress, the limit is 2; retry shortly",
    });
    expect((await app.request("/1.0")).status).toBe(200);
    release();
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200]);
    expect(shed.inFlight()).toBe(0);
    expect((await app.request("/1.0/instances")).status).toBe(200);
  });
});
