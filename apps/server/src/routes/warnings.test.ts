import { ManualClock } from "@berth/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

describe("GET /1.0/warnings on a real berthd", () => {
  let server: TestServer;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    server = await startTestServer({ clock });
    await addMembers(server.local(), [{ name: "node1" }]);
    clock.advance(60_000); // node1 sends no heartbeat: offline
  });
  afterEach(() => server.close());

  const types = async (query: string) => {
    const answer = await server.call("GET", `/1.0/warnings?recursion=1${query}`);
    expect(answer.status).toBe(200);
    return (answer.body.metadata as { type: string }[]).map((warning) => warning.type);
  };

  it("lists every warning without a project; a named project keeps only its own, as LXD does", async () => {
    expect(await types("")).toEqual(["Offline cluster member"]);
    expect(await types("&project=")).toEqual(["Offline cluster member"]);
    // The member warning is cluster-wide (project ""), so a project's list leaves it out.
    expect(await types("&project=default")).toEqual([]);
    expect(await types("&project=default&all-projects=true")).toEqual(["Offline cluster member"]);
  });

  it("refuses a malformed all-projects with a 400", async () => {
    const answer = await server.call("GET", "/1.0/warnings?all-projects=maybe");
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      'Invalid query parameter "all-projects": expected true or false, got "maybe"',
    );
  });
});
