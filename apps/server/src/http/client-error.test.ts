import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

/** Sends raw bytes on a fresh connection and returns everything the server writes before closing. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer within 5 s")));
  });
}

function parse(answer: string): { statusLine: string; headers: string; body: unknown } {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [statusLine = "", ...headers] = head.split("\r\n");
  return { statusLine, headers: headers.join("\n").toLowerCase(), body: JSON.parse(body) };
}

const envelope = (code: number, error: string) => ({
  type: "error",
  status: "",
  status_code: 0,
  operation: "",
  error_code: code,
  error,
  metadata: null,
});

describe("malformed HTTP answered with the LXD error envelope", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("a bad request line gets 400 with the envelope (was Node's bare 400)", async () => {
    const answer = parse(await rawExchange(server.url, "GARBAGE\r\n\r\n"));
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(answer.headers).toContain("content-type: application/json");
    expect(answer.body).toEqual(envelope(400, "Malformed HTTP request: invalid method"));
  });

  it("oversized headers get 431 with the envelope", async () => {
    const answer = parse(
      await rawExchange(server.url, `GET /1.0 HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
    );
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer.body).toEqual(envelope(431, "Request header fields too large"));
  });

  it("a bad Content-Length and a bad HTTP version get 400 naming the part", async () => {
    const length = parse(
      await rawExchange(server.url, "POST /1.0/instances HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"),
    );
    expect(length.body).toEqual(envelope(400, "Malformed HTTP request: invalid Content-Length"));
    const version = parse(await rawExchange(server.url, "GET /1.0 HTTP/9.x\r\nHost: x\r\n\r\n"));
    expect(version.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect((version.body as { error: string }).error).toMatch(/^Malformed HTTP request/);
  });

  it("keeps serving well-formed requests afterwards", async () => {
    expect((await server.fetch("/1.0", { token: server.adminToken })).status).toBe(200);
  });
});
