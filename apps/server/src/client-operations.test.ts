import { BerthApi as FetchBerthApi } from "@berth/client";
import { BerthApi, BerthApiError } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/** Rejects the name "bad" with a value (the seed's text), places new instances on node2. */
const SCRIPTLET = `def instance_placement(request, candidate_members):
    if request.name == "bad":
        return "Invalid name"
    if request.reason == "new":
        set_target("node2")
`;

interface OperationLite {
  description: string;
  status: string;
  err: string;
  resources: Record<string, string[]> | null;
}

/**
 * `@berth/client` asks for LXD's operations (`Prefer: respond-async`) and
 * waits on them: a real berthd on a loopback port answers 202, and the
 * client's callers still read the synchronous answer (or its error).
 */
describe("typed client over operations", () => {
  let server: TestServer;
  let api: BerthApi;
  /** What berthd recorded: every operation of `project`, oldest first. */
  const operations = async (project = "default"): Promise<OperationLite[]> => {
    const groups = (await api.request("listOperations", { query: { recursion: 1, project } })) as Record<
      string,
      OperationLite[]
    >;
    return Object.values(groups).flat();
  };
  const described = async (description: string) =>
    (await operations()).filter((one) => one.description === description);

  beforeAll(async () => {
    server = await startTestServer();
    api = new BerthApi({ url: server.url, token: server.adminToken });
    await addMembers(api, [{ name: "node1" }, { name: "node2" }]);
    await api.patchServerConfig({ "instances.placement.scriptlet": SCRIPTLET });
  });
  afterAll(() => server.close());

  it("creates through an operation and answers the created record as before (201, Location)", async () => {
    const created = await api.createInstance({ name: "c1" });
    expect(created.status).toBe(201);
    expect(created.location).toBe("/1.0/instances/c1");
    expect(created.metadata).toMatchObject({ name: "c1", location: "node2" });
    expect(await described("Creating instance")).toEqual([
      expect.objectContaining({ status: "Success", resources: { instances: ["/1.0/instances/c1"] } }),
    ]);
  });

  it("a create the scriptlet refuses fails its operation and throws the synchronous error's text", async () => {
    const refused = await api.createInstance({ name: "bad" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BerthApiError);
    const sync = await server.fetch("/1.0/instances", {
      method: "POST",
      body: JSON.stringify({ name: "bad" }),
      token: server.adminToken,
    });
    const syncError = (await sync.json()) as { error: string; error_code: number };
    expect(syncError.error).toBe(
      'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
    );
    expect((refused as BerthApiError).message).toBe(syncError.error);
    expect((refused as BerthApiError).status).toBe(syncError.error_code);
    const failed = (await described("Creating instance")).filter((one) => one.status === "Failure");
    expect(failed.map((one) => one.err)).toEqual([`Failed instance creation: ${syncError.error}`]);
  });

  it("moves, renames and deletes through operations, answering the same records", async () => {
    await api.createInstance({ name: "m1" });
    const moved = await api.moveInstance("m1", "node1");
    expect(moved).toMatchObject({ name: "m1", location: "node1" });
    await api.instances.rename("m1", "m2");
    expect((await api.instances.get("m2")).location).toBe("node1");
    await api.instances.patch("m2", { description: "patched" });
    expect((await api.instances.get("m2")).description).toBe("patched");
    await api.instances.delete("m2");
    expect(await api.instances.names()).not.toContain("m2");
    expect((await described("Migrating instance")).map((one) => one.status)).toEqual(["Success", "Success"]);
    expect((await described("Updating instance")).map((one) => one.status)).toEqual(["Success"]);
    expect(await described("Deleting instance")).toEqual([
      expect.objectContaining({ status: "Success", resources: { instances: ["/1.0/instances/m2"] } }),
    ]);
    const missing = await api.instances.delete("m2").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(BerthApiError);
    expect((missing as BerthApiError).status).toBe(404);
    expect((missing as BerthApiError).message).toBe('Instance "m2" not found in project "default"');
  });

  it("evacuates and restores a member through operations, the fetch-only core too", async () => {
    const fetchApi = new FetchBerthApi({ url: server.url, token: server.adminToken });
    await fetchApi.createInstance({ name: "e1" }, { target: "node2" });
    await fetchApi.evacuateMember("node2");
    expect((await fetchApi.instances.get("e1")).location).toBe("node1");
    await fetchApi.restoreMember("node2");
    expect((await fetchApi.instances.get("e1")).location).toBe("node2");
    expect((await described("Evacuating cluster member")).map((one) => one.status)).toEqual(["Success"]);
    expect((await described("Restoring cluster member")).map((one) => one.status)).toEqual(["Success"]);
  });

  it("waits in the caller's project", async () => {
    await api.projects.create({ name: "team" });
    await api.createInstance({ name: "t1" }, { project: "team" });
    expect((await operations("team")).map((one) => one.description)).toEqual(["Creating instance"]);
  });
});
