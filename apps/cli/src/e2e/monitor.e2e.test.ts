import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BERTH, berthInProcess, cliEnv, type RunningBerthd, startBerthd } from "../testing/berth.fixture.js";
import { IMAGE, seedCluster } from "../testing/cluster.fixture.js";

let server: RunningBerthd;

beforeAll(async () => {
  server = await startBerthd();
  await seedCluster(server);
});

afterAll(async () => {
  await server?.stop();
});

describe("berth monitor against berthd", { timeout: 120_000 }, () => {
  it("prints lifecycle events live as JSON lines and stops on SIGINT", async () => {
    const child = spawn(process.execPath, [BERTH, "--format", "json", "monitor", "--type", "lifecycle"], {
      env: cliEnv(server),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    // The monitor connects at its own pace: create instances until it reports one.
    const created: string[] = [];
    for (let i = 0; stdout === "" && i < 100; i++) {
      const name = `m${i}`;
      const run = await berthInProcess(server, ["init", IMAGE, name, "--target", "node1"]);
      expect(run.code, run.stderr).toBe(0);
      created.push(name);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; metadata: { action: string; source: string } });
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.type).toBe("lifecycle");
      expect(event.metadata.action).toBe("instance-created");
      expect(created.map((name) => `/1.0/instances/${name}`)).toContain(event.metadata.source);
    }
  });

  it("refuses an unknown event type as a usage error", async () => {
    const run = await berthInProcess(server, ["monitor", "--type", "gossip"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('Error: Unknown event type "gossip": use lifecycle, logging, operation\n');
  });
});
