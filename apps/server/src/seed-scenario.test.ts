import { existsSync, readdirSync, readFileSync } from "node:fs";
import { BerthApiError } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/**
 * The example scriptlet of seed 001 (LXD's design document for
 * instances.placement.scriptlet), verbatim (8-space indentation as in the seed).
 */
const SEED_SCRIPTLET = [
  "def instance_placement(request, candidate_members):",
  '        log_info("instance_placement started: ", request)',
  "",
  '        if request.name == "foo":',
  '                log_error("Invalid name supplied: ", request.name)',
  '                return "Invalid name"',
  "",
  "        set_target(candidate_members[0].server_name)",
  "        return # No error",
].join("\n");

/** The design docs sit outside the repository; when present, the copy above must match the seed. */
function seedFileScriptlet(): string | undefined {
  const seeds = new URL("../../../../shared/seeds/", import.meta.url);
  if (!existsSync(seeds)) return undefined;
  const file = readdirSync(seeds).find((f) => f.startsWith("001_"));
  if (file === undefined) return undefined;
  const text = readFileSync(new URL(file, seeds), "utf8");
  const start = text.indexOf("def instance_placement(request, candidate_members):");
  const end = text.indexOf("return # No error", start) + "return # No error".length;
  return text.slice(start, end);
}

describe("seed 001 scenario over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }, { name: "node2" }, { name: "node3" }]);
  });
  afterAll(() => server.close());

  it("sets the seed's example scriptlet through PATCH /1.0", async () => {
    const api = server.tcp(server.adminToken);
    const source = SEED_SCRIPTLET;
    const fromSeed = seedFileScriptlet();
    if (fromSeed !== undefined) expect(source).toBe(fromSeed);
    await api.patchServerConfig({ "instances.placement.scriptlet": source });
    const info = await api.getServer();
    expect(info.config["instances.placement.scriptlet"]).toBe(source);
  });

  it("rejects an instance named foo with the exact LXD error", async () => {
    const api = server.tcp(server.adminToken);
    const error = await api.createInstance({ name: "foo" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BerthApiError);
    expect((error as BerthApiError).message).toBe(
      'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
    );
    expect((error as BerthApiError).status).toBe(400);
  });

  it("places another instance on the member the scriptlet chose (candidate_members[0])", async () => {
    const api = server.tcp(server.adminToken);
    const dry = await api.dryRun({ name: "bar" });
    expect(dry.decision).toMatchObject({ outcome: "placed", decided_by: "scriptlet" });
    const chosen = dry.candidates[0];
    const created = await api.createInstance({ name: "bar" });
    expect(created.status).toBe(201);
    expect(created.metadata.location).toBe(chosen);
    expect(created.location).toBe("/1.0/instances/bar");
    expect((await api.instances.get("bar")).location).toBe(chosen);
  });

  it("logs the scriptlet's log lines as structured JSON", () => {
    const lines = server.logs.filter((l) => String(l.msg).startsWith("Instance placement scriptlet:"));
    expect(lines.some((l) => String(l.msg).includes("Invalid name supplied: foo") && l.level === 50)).toBe(
      true,
    );
    expect(lines.some((l) => String(l.msg).includes("instance_placement started: "))).toBe(true);
  });
});
