import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await addMembers(server.local(), [{ name: "m1" }, { name: "m2" }]);
});
afterAll(() => server.close());

const encode = (source: string) => Buffer.from(source, "utf8").toString("base64");

async function dryRun(scriptletHeader: string, token = server.adminToken, query = "?dry_run=true") {
  const response = await server.fetch(`/1.0/instances${query}`, {
    method: "POST",
    token,
    headers: { "x-berth-scriptlet": scriptletHeader },
    body: JSON.stringify({ name: "foo" }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("dry run of a proposed scriptlet (X-Berth-Scriptlet)", () => {
  it("is advertised as the scriptlet_dry_run_source API extension", async () => {
    const info = (await server.tcp(server.adminToken).getServer()) as { api_extensions: string[] };
    expect(info.api_extensions).toContain("scriptlet_dry_run_source");
  });

  it("runs the proposed scriptlet instead of the configured one", async () => {
    const rejecting = encode(
      'def instance_placement(request, candidate_members):\n    if request.name == "foo":\n        return "Invalid name"\n    set_target("m2")\n',
    );
    const answer = await dryRun(rejecting);
    expect(answer.status).toBe(200);
    expect(answer.body.metadata).toMatchObject({
      decision: {
        outcome: "rejected",
        error: 'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
      },
      scriptlet_ran: true,
    });
    const targeting = encode('def instance_placement(request, candidate_members):\n    set_target("m2")\n');
    expect((await dryRun(targeting)).body.metadata).toMatchObject({
      decision: { outcome: "placed", location: "m2", decided_by: "scriptlet" },
    });
  });

  it("answers 400 for bad base64, an invalid scriptlet, or a create that is not a dry run", async () => {
    const notBase64 = await dryRun("this is not base64!");
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.error).toContain("X-Berth-Scriptlet");
    const broken = await dryRun(encode("def instance_placement(:\n"));
    expect(broken.status).toBe(400);
    expect(String(broken.body.error)).toContain("instance_placement:1:");
    const notDry = await dryRun(
      encode('def instance_placement(request, candidate_members):\n    set_target("m1")\n'),
      server.adminToken,
      "",
    );
    expect(notDry.status).toBe(400);
    expect(notDry.body.error).toContain("only honoured on dry runs");
  });

  it("is refused (403) to a project-scoped token", async () => {
    const answer = await dryRun(
      encode("def instance_placement(request, candidate_members):\n    pass\n"),
      server.teamToken,
      "?dry_run=true&project=team",
    );
    expect(answer.status).toBe(403);
  });
});
