import type { ClusterMemberState } from "@berth/api-types";
import { BerthApi } from "@berth/client/node";
import { parse } from "yaml";
import { MEMBER_STATE_YAML, type RunningBerthd } from "./berth.fixture.js";

/** The image the e2e tests create instances from (alias `ubuntu/jammy`). */
export const IMAGE = "5b1e8f3c1a9d4e7f2b6c0d8a3e5f7c9b1d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a";

/**
 * Puts the cluster that `cli.e2e.test.ts` builds command by command straight
 * into a fresh berthd through the API: three heartbeating x86_64 members
 * (node1 in rack-a, node2 and node3 in rack-b; node1 and node2 in group
 * rack-a), each with 8 VCPU at ratio 2, 16 GiB and 200 GiB; the image
 * `ubuntu/jammy`; flavors m1.small and huge; project team-a. The commands
 * that build it are tested there; the instance tests only need it to exist.
 */
export async function seedCluster(server: RunningBerthd): Promise<void> {
  const api = new BerthApi({ socketPath: server.socket });
  // Members must not go Offline between the test's steps (berthd runs with a 1 s tick).
  await api.patchServerConfig({ "cluster.offline_threshold": "86400" });
  await api.groups.create({ name: "rack-a", description: "Rack A" });
  // One after another: join order is the listing order, and the scriptlet's tie order.
  for (const [name, domain, groups] of [
    ["node1", "rack-a", ["rack-a"]],
    ["node2", "rack-b", ["rack-a"]],
    ["node3", "rack-b", []],
  ] as const) {
    await api.members.create({
      server_name: name,
      architecture: "x86_64",
      failure_domain: domain,
      groups: [...groups],
    });
  }
  const state = parse(MEMBER_STATE_YAML) as ClusterMemberState;
  await Promise.all(
    ["node1", "node2", "node3"].map(async (member) => {
      await api.putMemberState(member, state);
      for (const [resourceClass, total, ratio] of [
        ["VCPU", 8, 2],
        ["MEMORY_MB", 16384, 1],
        ["DISK_GB", 200, 1],
      ] as const) {
        // Each PUT bumps the member's generation, so each reads the current one first.
        const { generation } = await api.getInventories(member);
        await api.putInventory(member, resourceClass, {
          generation,
          total,
          reserved: 0,
          allocation_ratio: ratio,
          min_unit: 1,
          max_unit: 2147483647,
          step_size: 1,
        });
      }
    }),
  );
  await Promise.all([
    api.images.create({
      fingerprint: IMAGE,
      architecture: "x86_64",
      type: "container",
      aliases: [{ name: "ubuntu/jammy", description: "" }],
    }),
    api.flavors.create({ name: "m1.small", vcpus: 1, memory_mb: 2048, disk_gb: 20 }),
    api.flavors.create({ name: "huge", vcpus: 64, memory_mb: 512 * 1024, disk_gb: 0 }),
    api.projects.create({ name: "team-a", config: { "limits.instances": "2" } }),
  ]);
}
