import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

const KIB = 1024;

/** Starts a POST that declares `declared` bytes, sends `sent` of them and keeps the connection open. */
function slowBody(server: TestServer, declared: number, sent: number) {
  const { hostname, port } = new URL(server.url);
  let answer = "";
  const socket: Socket = connect(Number(port), hostname);
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString("utf8");
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write(
    `POST /1.0/instances HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${" ".repeat(sent)}`,
  );
  return {
    answer: () => answer,
    finish: (rest: number) => socket.write(" ".repeat(rest)),
    close: async () => {
      socket.destroy();
      await closed;
    },
  };
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("total memory of request bodies being received", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ bodyLimitBytes: 64 * KIB, bodyMemoryBytes: 100 * KIB });
  });
  afterAll(() => server.close());

  it("refuses with 503 and Retry-After a body that would pass the budget while slow clients hold theirs", async () => {
    // Two authenticated slow clients each hold 48 KiB of a 60 KiB body (within the per-request limit).
    const first = slowBody(server, 60 * KIB, 48 * KIB);
    const second = slowBody(server, 60 * KIB, 48 * KIB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A third one would take the total past 100 KiB.
    const third = slowBody(server, 60 * KIB, 20 * KIB);
    await until(() => third.answer().includes("\r\n\r\n{"), "the third client's answer");
    const [head = "", body = ""] = third.answer().split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(head.toLowerCase()).toContain("retry-after: 1");
    const envelope = JSON.parse(body) as { error_code: number; error: string };
    expect(envelope.error_code).toBe(503);
    expect(envelope.error).toMatch(
      /^Server busy: request bodies being received already hold \d+ bytes of the 102400-byte limit; retry shortly$/,
    );
    // Small requests without a body still get through while the slow ones hold memory.
    expect((await server.fetch("/1.0", { token: server.adminToken })).status).toBe(200);
    // A client that goes away frees its share: the first can then finish its body and be answered.
    await second.close();
    await third.close();
    first.finish(12 * KIB);
    await until(() => first.answer().includes("\r\n\r\n{"), "the first client's answer");
    expect(first.answer()).toMatch(/^HTTP\/1\.1 400 .*Missing request body/s);
    const after = await server.fetch("/1.0/instances", {
      method: "POST",
      token: server.adminToken,
      body: JSON.stringify({ name: "x", description: "d".repeat(50 * KIB) }),
    });
    expect(after.status).not.toBe(503);
    await first.close();
  });
});
