import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMembers,
  memberResources,
  startTestServer,
  type TestServer,
} from "../testing/test-server.fixture.js";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "./json-depth.js";

const nested = (levels: number, leaf = "1") => `${'{"a":'.repeat(levels)}${leaf}${"}".repeat(levels)}`;

describe("jsonDepthExceeds", () => {
  it("counts objects and arrays, not brackets inside strings or escaped quotes", () => {
    expect(jsonDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonDepthExceeds(nested(4), 3)).toBe(true);
    expect(jsonDepthExceeds("[[[[]]]]", 3)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"[[[[{{{{","b":"\\"[[[["}`, 1)).toBe(false);
    expect(jsonDepthExceeds("[1,[2],[3],[4]]", 2)).toBe(false);
  });
});

describe("deeply nested request bodies over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }]);
  });
  afterAll(() => server.close());

  it("answers 400 naming the limit for 999 levels in a member's hardware record (was 500)", async () => {
    // Hardware detail records take any JSON object (member-resources.ts), so only the depth bound stops this.
    const body = JSON.stringify(memberResources()).replace('"system":{', `"system":{"deep":${nested(999)},`);
    const response = await server.fetch("/1.0/cluster/members/node1/resources", {
      method: "PUT",
      token: server.adminToken,
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: "error",
      status: "",
      status_code: 0,
      error_code: 400,
      error: `Request body nests too deeply: the limit is ${MAX_JSON_DEPTH} levels of objects and arrays`,
      metadata: null,
      operation: "",
    });
    const atLimit = JSON.stringify(memberResources()).replace(
      '"system":{',
      `"system":{"deep":${nested(MAX_JSON_DEPTH - 2)},`,
    );
    const accepted = await server.fetch("/1.0/cluster/members/node1/resources", {
      method: "PUT",
      token: server.adminToken,
      body: atLimit,
    });
    expect(accepted.status).toBe(200);
  });

  it("refuses deep arrays on other body routes before the schema sees them", async () => {
    const deep = await server.fetch("/1.0/instances", {
      method: "POST",
      token: server.adminToken,
      body: `{"name":"deep","config":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: string }).error).toMatch(/nests too deeply/);
  });
});
