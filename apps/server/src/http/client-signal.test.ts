/**
 * The client's signal, on a real Node HTTP server on loopback: aborted when
 * the client hangs up before its answer, never once the answer is written,
 * and made only when asked for (the request stays the adapter's light one).
 */
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, expect, it } from "vitest";
import { lazyClientSignal } from "./client-signal.js";
import type { ServerEnv } from "./server-env.js";

type Server = ReturnType<typeof createAdaptorServer>;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(app: Hono<ServerEnv>): Promise<number> {
  server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server!.address() as AddressInfo).port;
}

it("aborts when the client hangs up before the answer, and only then", async () => {
  const signals: AbortSignal[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const app = new Hono<ServerEnv>();
  app.get("/wait", async (c) => {
    signals.push(lazyClientSignal(c)());
    await held;
    return c.text("late");
  });
  app.get("/now", (c) => {
    const signal = lazyClientSignal(c);
    signals.push(signal());
    // Asked twice: the same signal.
    expect(signal()).toBe(signals.at(-1));
    return c.text("ok");
  });
  const port = await serve(app);
  expect(await (await fetch(`http://127.0.0.1:${port}/now`)).text()).toBe("ok");
  const socket = connect(port, "127.0.0.1");
  socket.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
  await expect.poll(() => signals.length).toBe(2);
  socket.destroy();
  await expect.poll(() => signals[1]!.aborted).toBe(true);
  // The same reason the adapter's own signal gives (the request stream failed as the socket closed).
  expect(String(signals[1]!.reason)).toMatch(/aborted|prematurely closed/);
  expect(signals[0]!.aborted).toBe(false);
  release();
});

it("leaves the request unbuilt until the signal is asked for", async () => {
  const built: boolean[] = [];
  const app = new Hono<ServerEnv>();
  app.get("/", (c) => {
    lazyClientSignal(c);
    // @hono/node-server builds a WHATWG Request (and its body stream) for `raw.signal`; the
    // lazy signal neither reads it nor makes one until called.
    built.push(Object.getOwnPropertySymbols(c.req.raw).some((key) => key.description === "requestCache"));
    return c.text("ok");
  });
  const port = await serve(app);
  await (await fetch(`http://127.0.0.1:${port}/`)).text();
  expect(built).toEqual([false]);
});
