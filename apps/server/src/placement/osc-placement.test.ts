/**
 * The real OpenStack client (Debian python3-openstackclient +
 * python3-osc-placement) against a real berthd, without Keystone: osc's
 * `token_endpoint` auth sends a Berth admin token as `X-Auth-Token` to the
 * `/placement` endpoint (README "Berth as OpenStack Placement").
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import { PLACEMENT_PREFIX } from "./placement-app.js";

const run = promisify(execFile);
const OPENSTACK = "/usr/bin/openstack";
const missing = existsSync(OPENSTACK)
  ? undefined
  : `${OPENSTACK} is not installed (Debian python3-openstackclient)`;

describe.skipIf(missing !== undefined)("openstack resource provider ... against berthd", () => {
  let server: TestServer;
  const osc = async (...args: string[]): Promise<unknown> => {
    const { stdout } = await run(OPENSTACK, [...args, "-f", "json"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: server.dir,
        OS_AUTH_TYPE: "token_endpoint",
        OS_ENDPOINT: `${server.url}${PLACEMENT_PREFIX}`,
        OS_TOKEN: server.adminToken,
        OS_PLACEMENT_API_VERSION: "1.39",
      },
    });
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("creates, lists and shows providers, sets and lists inventories and traits, shows usages", {
    timeout: 120_000,
  }, async () => {
    const created = (await osc("resource", "provider", "create", "compute-1")) as {
      uuid: string;
      generation: number;
    };
    expect(created.generation).toBe(0);
    const listed = (await osc("resource", "provider", "list")) as { uuid: string; name: string }[];
    expect(listed).toEqual([expect.objectContaining({ uuid: created.uuid, name: "compute-1" })]);
    const shown = (await osc("resource", "provider", "show", created.uuid)) as { name: string };
    expect(shown.name).toBe("compute-1");

    await osc(
      "resource",
      "provider",
      "inventory",
      "set",
      created.uuid,
      "--resource",
      "VCPU=8",
      "--resource",
      "MEMORY_MB=4096",
    );
    const inventories = (await osc("resource", "provider", "inventory", "list", created.uuid)) as {
      resource_class: string;
      total: number;
    }[];
    expect(inventories.map((i) => [i.resource_class, i.total]).sort()).toEqual([
      ["MEMORY_MB", 4096],
      ["VCPU", 8],
    ]);

    const traits = (await osc("trait", "list")) as { name: string }[];
    expect(traits.map((t) => t.name)).toContain("HW_CPU_X86_AVX2");
    const set = (await osc(
      "resource",
      "provider",
      "trait",
      "set",
      created.uuid,
      "--trait",
      "HW_CPU_X86_AVX2",
    )) as {
      name: string;
    }[];
    expect(set.map((t) => t.name)).toEqual(["HW_CPU_X86_AVX2"]);

    // One allocation through the API, then the usage the client shows.
    const consumer = "6a2d4b36-0f4f-4a3c-9f1e-3f1c2b7f8e01";
    const response = await fetch(`${server.url}${PLACEMENT_PREFIX}/allocations/${consumer}`, {
      method: "PUT",
      headers: {
        "x-auth-token": server.adminToken,
        "content-type": "application/json",
        "openstack-api-version": "placement 1.39",
      },
      body: JSON.stringify({
        allocations: { [created.uuid]: { resources: { VCPU: 2 } } },
        project_id: "p",
        user_id: "u",
        consumer_generation: null,
        consumer_type: "INSTANCE",
      }),
    });
    expect(response.status).toBe(204);
    const usage = (await osc("resource", "provider", "usage", "show", created.uuid)) as {
      resource_class: string;
      usage: number;
    }[];
    expect(usage.find((u) => u.resource_class === "VCPU")?.usage).toBe(2);

    // What Nova's scheduler asks: one candidate, the provider with room for the VCPU.
    const candidates = (await osc("allocation", "candidate", "list", "--resource", "VCPU=1")) as Record<
      string,
      unknown
    >[];
    expect(candidates).toHaveLength(1);
    expect(candidates[0]).toMatchObject({ "resource provider": created.uuid, allocation: "VCPU=1" });
  });
});

if (missing !== undefined) {
  describe("openstack resource provider ... against berthd", () => {
    it.skip(`skipped: ${missing}`, () => {});
  });
}
