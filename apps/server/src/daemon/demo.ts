import type { Hono } from "hono";
import type { RunningServer } from "../http/listen.js";
import { localRequest } from "../http/local-request.js";
import type { ServerEnv } from "../http/server-env.js";
import type { DatabaseLocation } from "./database-location.js";
import { type SelfCommands, shellWord } from "./self-command.js";

/** The sample cluster: two racks, four members, two flavors, one image. */
const GROUPS = [
  { name: "rack-a", description: "Demo rack A" },
  { name: "rack-b", description: "Demo rack B" },
];

export const DEMO_MEMBERS = [
  {
    server_name: "node1",
    groups: ["rack-a"],
    failure_domain: "rack-a",
    cpus: 16,
    memoryMb: 65536,
    diskGb: 1000,
  },
  {
    server_name: "node2",
    groups: ["rack-a"],
    failure_domain: "rack-a",
    cpus: 16,
    memoryMb: 65536,
    diskGb: 1000,
  },
  {
    server_name: "node3",
    groups: ["rack-b"],
    failure_domain: "rack-b",
    cpus: 32,
    memoryMb: 131072,
    diskGb: 2000,
  },
  {
    server_name: "node4",
    groups: ["rack-b"],
    failure_domain: "rack-b",
    cpus: 8,
    memoryMb: 32768,
    diskGb: 500,
  },
] as const;

const FLAVORS = [
  { name: "m1.small", description: "1 vCPU, 2 GiB, 20 GB", vcpus: 1, memory_mb: 2048, disk_gb: 20 },
  { name: "m1.large", description: "4 vCPU, 8 GiB, 80 GB", vcpus: 4, memory_mb: 8192, disk_gb: 80 },
];

/** sha256("berth demo image ubuntu/24.04"): any 64-hex fingerprint will do for the demo. */
const DEMO_IMAGE = {
  fingerprint: "5b1e8f3c1a9d4e7f2b6c0d8a3e5f7c9b1d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a",
  architecture: "x86_64",
  type: "container",
  description: "Ubuntu 24.04 (demo)",
  aliases: [{ name: "ubuntu/24.04", description: "" }],
};

/** A plausible heartbeat: what a member reports in `PUT .../state`. */
export function demoMemberState(memoryMb: number, diskGb: number): Record<string, unknown> {
  const totalRam = memoryMb * 1024 * 1024;
  return {
    sysinfo: {
      uptime: Math.floor(process.uptime()) + 3600,
      load_averages: [0.4, 0.3, 0.2],
      total_ram: totalRam,
      free_ram: Math.floor(totalRam * 0.7),
      shared_ram: 0,
      buffered_ram: 0,
      total_swap: 0,
      free_swap: 0,
      processes: 180,
    },
    storage_pools: {
      default: {
        space: { used: 0, total: diskGb * 1_000_000_000 },
        inodes: { used: 0, total: 10_000_000 },
      },
    },
  };
}

async function must(app: Hono<ServerEnv>, method: string, path: string, body?: unknown): Promise<unknown> {
  const { status, envelope } = await localRequest(app, method, path, body);
  if (status >= 300)
    throw new Error(`Demo set-up failed at ${method} ${path}: ${status} ${envelope.error ?? ""}`);
  return envelope.metadata;
}

/** Well inside the default `cluster.offline_threshold` (20 s). */
export const DEMO_HEARTBEAT_MS = 5_000;

/** Sends one heartbeat per demo member, so they stay online while berthd runs with --demo. */
export async function beatDemoMembers(app: Hono<ServerEnv>): Promise<void> {
  for (const m of DEMO_MEMBERS) {
    await localRequest(
      app,
      "PUT",
      `/1.0/cluster/members/${m.server_name}/state`,
      demoMemberState(m.memoryMb, m.diskGb),
    );
  }
}

/**
 * Loads the sample cluster through the API, unless the database already has
 * members (restarting with --demo never duplicates or overwrites anything).
 * Returns whether it loaded.
 */
export async function loadDemoCluster(app: Hono<ServerEnv>): Promise<boolean> {
  const existing = (await must(app, "GET", "/1.0/cluster/members")) as unknown[];
  if (existing.length > 0) return false;
  for (const group of GROUPS) await must(app, "POST", "/1.0/cluster/groups", group);
  for (const m of DEMO_MEMBERS) {
    await must(app, "POST", "/1.0/cluster/members", {
      server_name: m.server_name,
      url: `https://${m.server_name}.demo.invalid:8443`,
      architecture: "x86_64",
      groups: [...m.groups],
      failure_domain: m.failure_domain,
      description: `Demo member in ${m.failure_domain}`,
      // The rack as a topology key too, so a placement group can spread over it (topology=rack).
      config: { "topology.rack": m.failure_domain },
    });
    const current = (await must(app, "GET", `/1.0/cluster/members/${m.server_name}/inventories`)) as {
      generation: number;
    };
    await must(app, "PUT", `/1.0/cluster/members/${m.server_name}/inventories`, {
      generation: current.generation,
      inventories: {
        VCPU: { total: m.cpus, allocation_ratio: 4.0 },
        MEMORY_MB: { total: m.memoryMb, reserved: 2048 },
        DISK_GB: { total: m.diskGb },
      },
    });
    await must(
      app,
      "PUT",
      `/1.0/cluster/members/${m.server_name}/state`,
      demoMemberState(m.memoryMb, m.diskGb),
    );
  }
  for (const flavor of FLAVORS) await must(app, "POST", "/1.0/flavors", flavor);
  await must(app, "POST", "/1.0/images", DEMO_IMAGE);
  return true;
}

/**
 * What to type next: printed on start with --demo, with berthd and berth as
 * they run from this terminal. `defaultSocket` is where berth looks when
 * told nothing; another socket is named on its command line.
 */
export function demoInstructions(
  running: RunningServer,
  commands: SelfCommands,
  db: DatabaseLocation,
  defaultSocket: string,
): string {
  const socket = running.socketPath;
  const lines = [
    "",
    "Berth demo cluster ready: 4 members (node1..node4) in racks rack-a and rack-b.",
    "Try it:",
    "",
  ];
  if (socket !== undefined) {
    lines.push(
      `  curl -s --unix-socket ${socket} -X POST http://berth/1.0/instances \\`,
      `       -d '{"name":"web1","source":{"type":"image","alias":"ubuntu/24.04"},"flavor":"m1.small"}'`,
      `  curl -s --unix-socket ${socket} 'http://berth/1.0/instances?recursion=1'`,
      "",
    );
    const berth =
      socket === defaultSocket ? commands.berth : `${commands.berth} --socket ${shellWord(socket)}`;
    lines.push(
      `  ${berth} launch ubuntu/24.04 web2 --flavor m1.small      (the CLI, on ${socket})`,
      `  ${berth} list`,
    );
  } else if (running.url !== undefined) {
    lines.push(
      `  TOKEN=$(${commands.berthd} token create demo --admin --db ${shellWord(db.shown)} --json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).token')`,
      `  curl -s -H "Authorization: Bearer $TOKEN" ${running.url}/1.0/cluster/members?recursion=1`,
    );
  }
  lines.push("", "The demo members' heartbeats are simulated while this berthd runs.", "");
  return `${lines.join("\n")}\n`;
}
