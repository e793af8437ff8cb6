// Placements over HTTP against a real berthd (real SQLite file, real TCP listener):
// latency of one create at a time, and sustained creates with concurrent clients.
// Usage: node bench/http-placement.mjs [members=200] [seconds=10]   (after `pnpm build`)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import { Engine } from "@berth/engine";
import autocannon from "autocannon";
import { pino } from "pino";
import { createApp, issueToken, listen, MemoryTokenStore, ServerMetrics } from "../dist/index.js";

const members = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 10);
const dir = mkdtempSync(join(tmpdir(), "berth-bench-"));
const store = await openStore(join(dir, "berth.db"));
const engine = await Engine.open({ store });
await engine.setConfig({ "cluster.offline_threshold": "86400" });
const started = Date.now();
for (let i = 0; i < members; i++) {
  await engine.createMember({
    name: `m${i}`,
    inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 262144 }, DISK_GB: { total: 10000 } },
  });
}
console.error(`${members} members registered in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const tokens = new MemoryTokenStore();
const { secret } = await issueToken(tokens, "bench", { admin: true });
const app = createApp({ engine, tokens, logger: pino({ level: "silent" }), metrics: new ServerMetrics() });
const running = await listen(app, { tcp: { host: "127.0.0.1", port: 0 } });

let counter = 0;
function run(connections) {
  return autocannon({
    url: `${running.url}/1.0/instances`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    requests: [
      {
        method: "POST",
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            name: `i${counter++}`,
            config: { "limits.cpu": "1", "limits.memory": "1GiB" },
          }),
        }),
      },
    ],
  });
}

const rows = [];
for (const connections of [1, 16]) {
  const result = await run(connections);
  rows.push({
    connections,
    "creates/s (mean)": Math.round(result.requests.average),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    "2xx": result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
  });
}
console.table(rows);
await running.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
