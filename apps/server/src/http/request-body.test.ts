import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ bodyLimitBytes: 1024 });
});
afterAll(() => server.close());

/** POSTs `chunks` with chunked transfer encoding (no Content-Length), as streaming clients do. */
function postChunked(
  path: string,
  chunks: string[],
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    // The server may answer (413) and close before the whole body is sent.
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("request bodies read from the Node request", () => {
  it("accepts a chunked body within the limit", async () => {
    const body = JSON.stringify({ name: "chunky", description: "in pieces", config: {} });
    const answer = await postChunked("/1.0/projects", [body.slice(0, 10), body.slice(10)]);
    expect(answer.status).toBe(201);
  });

  it("refuses a chunked body over the limit with 413 while reading it", async () => {
    const description = "x".repeat(2000);
    const body = JSON.stringify({ name: "huge", description, config: {} });
    const answer = await postChunked("/1.0/projects", [body.slice(0, 500), body.slice(500)]);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ type: "error", error_code: 413 });
    expect(String(answer.body.error)).toContain("the limit is 1024 bytes");
  });

  it("reads a body that arrived whole with its headers, and refuses one over the limit the same way", async () => {
    // One write: headers, then the whole chunked body, parsed before the handler reads it.
    const within = JSON.stringify({ name: "whole", description: "at once", config: {} });
    expect((await postChunked("/1.0/projects", [within])).status).toBe(201);
    const over = JSON.stringify({ name: "whole-huge", description: "x".repeat(2000), config: {} });
    const answer = await postChunked("/1.0/projects", [over]);
    expect(answer.status).toBe(413);
    expect(String(answer.body.error)).toBe("Request body too large: the limit is 1024 bytes");
    const empty = await postChunked("/1.0/projects", []);
    expect(empty.status).toBe(400);
    expect(String(empty.body.error)).toBe("Missing request body: expected a JSON object");
  });

  it("reads bodies with Content-Length one after another on a kept-alive connection", async () => {
    // Past the first request Node's parser hands over the body before it reports the message
    // complete: the body is read from the buffer by its declared length, and the stream still ends.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (const name of ["kept-1", "kept-2", "kept-3"]) {
        const payload = JSON.stringify({ name, config: {} });
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(`${server.url}/1.0/projects`, {
            method: "POST",
            agent,
            headers: {
              authorization: `Bearer ${server.adminToken}`,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(payload),
            },
          });
          req.on("socket", (socket) => sockets.add(socket));
          req.on("response", (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          });
          req.on("error", reject);
          req.end(payload);
        });
        expect(status).toBe(201);
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
