/**
 * Berth's own placements claim a child provider's classes, over HTTP
 * against a real berthd (SQLite file): a member whose FPGA child (created
 * through /placement) has room takes a flavor asking for
 * `resources:CUSTOM_FPGA=1`; the allocation is the child's, visible as the
 * instance's Placement consumer and in the child's usages; the child is
 * one ledger for both APIs.
 */
import { randomUUID } from "node:crypto";
import { memberProviderUuid } from "@berth/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placementCall } from "../testing/placement.fixture.js";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

describe("LXD placements on a member's child providers", () => {
  let server: TestServer;
  const placement = (method: string, path: string, body?: unknown) =>
    placementCall(server, method, path, body);
  const setInventories = async (uuid: string, inventories: Record<string, { total: number }>) => {
    const { body } = await placement("GET", `/resource_providers/${uuid}`);
    const set = await placement("PUT", `/resource_providers/${uuid}/inventories`, {
      resource_provider_generation: body.generation,
      inventories,
    });
    expect(set.status).toBe(200);
  };
  const claimFpga = (consumer: string, provider: string) =>
    placement("PUT", `/allocations/${consumer}`, {
      allocations: { [provider]: { resources: { CUSTOM_FPGA: 1 } } },
      project_id: "p",
      user_id: "u",
      consumer_generation: null,
      consumer_type: "INSTANCE",
    });
  const createFpga = (name: string) => server.call("POST", "/1.0/instances", { name, flavor: "fpga" });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("lands on the member whose FPGA child has room, and shares the child with Placement consumers", async () => {
    for (const name of ["plain", "accel"]) {
      expect((await server.call("POST", "/1.0/cluster/members", { server_name: name })).status).toBe(201);
      await setInventories(memberProviderUuid(name), { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 } });
    }
    expect((await placement("PUT", "/resource_classes/CUSTOM_FPGA")).status).toBe(201);
    const created = await placement("POST", "/resource_providers", {
      name: "accel-fpga0",
      parent_provider_uuid: memberProviderUuid("accel"),
    });
    expect(created.status).toBe(200);
    const child = created.body.uuid as string;
    await setInventories(child, { CUSTOM_FPGA: { total: 1 } });
    const flavor = await server.call("POST", "/1.0/flavors", {
      name: "fpga",
      vcpus: 1,
      memory_mb: 512,
      disk_gb: 0,
      extra_specs: { "resources:CUSTOM_FPGA": "1" },
    });
    expect(flavor.status).toBe(201);

    const first = await createFpga("a");
    expect(first.status).toBe(201);
    const instance = (await server.call("GET", "/1.0/instances/a")).body.metadata;
    expect(instance.location).toBe("accel");
    // The LXD API's view of what the instance holds names the class.
    expect(instance.resources).toMatchObject({ CUSTOM_FPGA: 1, VCPU: 1 });
    // Placement counts it on the child, and shows the instance as the consumer of its uuid.
    expect((await placement("GET", `/resource_providers/${child}/usages`)).body.usages).toEqual({
      CUSTOM_FPGA: 1,
    });
    const asConsumer = await placement("GET", `/allocations/${instance.uuid}`);
    expect(asConsumer.body).toMatchObject({
      allocations: { [child]: { resources: { CUSTOM_FPGA: 1 } } },
      project_id: "default",
      user_id: "berth",
      consumer_type: "INSTANCE",
    });

    const second = await createFpga("b");
    expect(second.status).toBe(507);
    expect(second.body.error).toBe(
      'No suitable cluster member could be found for instance "b" in project "default": 1 member lacks CUSTOM_FPGA, 1 has too little CUSTOM_FPGA',
    );
    // A Placement consumer finds no room on the child either, and cannot touch the instance's consumer.
    const refused = await claimFpga(randomUUID(), child);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toContain(
      `Unable to create allocation for 'CUSTOM_FPGA' on resource provider '${child}'. The requested amount would exceed the capacity.`,
    );
    const rewrite = await claimFpga(instance.uuid, child);
    expect(rewrite.status).toBe(409);
    expect(rewrite.body.errors[0].detail).toContain("is a Berth instance");

    // The reverse: once the instance is gone, a Placement consumer takes the child and LXD is refused.
    expect((await server.call("DELETE", "/1.0/instances/a")).status).toBe(200);
    expect((await placement("GET", `/resource_providers/${child}/usages`)).body.usages).toEqual({
      CUSTOM_FPGA: 0,
    });
    expect((await claimFpga(randomUUID(), child)).status).toBe(204);
    const afterConsumer = await createFpga("c");
    expect(afterConsumer.status).toBe(507);
    expect(afterConsumer.body.error).toContain("1 has too little CUSTOM_FPGA");
    const store = server.engine.store as unknown as { check(): Promise<{ violations: unknown[] }> };
    expect((await store.check()).violations).toEqual([]);
  });
  it("moves the child's generation when an instance claims it, so a Placement client's cached generation conflicts", async () => {
    expect((await server.call("POST", "/1.0/cluster/members", { server_name: "gpuhost" })).status).toBe(201);
    await setInventories(memberProviderUuid("gpuhost"), { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 } });
    expect((await placement("PUT", "/resource_classes/CUSTOM_GPU")).status).toBe(201);
    const created = await placement("POST", "/resource_providers", {
      name: "gpuhost-gpu0",
      parent_provider_uuid: memberProviderUuid("gpuhost"),
    });
    const child = created.body.uuid as string;
    await setInventories(child, { CUSTOM_GPU: { total: 4 } });
    const flavor = { vcpus: 1, memory_mb: 256, disk_gb: 0, extra_specs: { "resources:CUSTOM_GPU": "1" } };
    expect((await server.call("POST", "/1.0/flavors", { name: "gpu", ...flavor })).status).toBe(201);
    // A Placement client reads the child's generation, then an instance takes a GPU.
    const cached = (await placement("GET", `/resource_providers/${child}`)).body.generation as number;
    expect((await server.call("POST", "/1.0/instances", { name: "g1", flavor: "gpu" })).status).toBe(201);
    const shown = await placement("GET", `/resource_providers/${child}`);
    expect(shown.body.generation).toBe(cached + 1);
    const stale = await placement("PUT", `/resource_providers/${child}/inventories`, {
      resource_provider_generation: cached,
      inventories: { CUSTOM_GPU: { total: 2 } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe("placement.concurrent_update");
    const fresh = await placement("PUT", `/resource_providers/${child}/inventories`, {
      resource_provider_generation: shown.body.generation,
      inventories: { CUSTOM_GPU: { total: 2 } },
    });
    expect(fresh.status).toBe(200);
    const store = server.engine.store as unknown as { check(): Promise<{ violations: unknown[] }> };
    expect((await store.check()).violations).toEqual([]);
  });
});
