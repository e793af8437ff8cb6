// Placements over HTTP against real berthd processes (built dist/main.js, a temp
// SQLite file, TCP on loopback, access logs on, as deployed).
//
//   node bench/http-placement.mjs [--members 1000] [--seconds 10] [--processes 1]
//        [--connections 1,16,64] [--cpu-prof DIR] [--repeat 1] [--watch-events]
//
// --watch-events keeps one /1.0/events websocket open per server during the
// load (every event type, all projects), as `lxc monitor` or the console
// would: what placements cost while someone watches.
// For each connection count: autocannon for --seconds against the server(s)
// (connections spread over the processes), reporting creates/s, latency
// percentiles and the servers' CPU time per create (from /proc: robust on a
// loaded machine where wall time is not). --cpu-prof writes a V8 profile of
// each server process on exit. Afterwards the store's consistency check runs.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openStore } from "@berth/adapter-sqlite";
import { Engine } from "@berth/engine";
import autocannon from "autocannon";
import WebSocket from "ws";

const { values } = parseArgs({
  options: {
    members: { type: "string", default: "1000" },
    seconds: { type: "string", default: "10" },
    processes: { type: "string", default: "1" },
    connections: { type: "string", default: "1,16,64" },
    repeat: { type: "string", default: "1" },
    "cpu-prof": { type: "string" },
    "watch-events": { type: "boolean", default: false },
  },
});
const members = Number(values.members);
const seconds = Number(values.seconds);
const processes = Number(values.processes);
const connectionCounts = values.connections.split(",").map(Number);
const repeat = Number(values.repeat);
const mainJs = join(dirname(fileURLToPath(import.meta.url)), "../dist/main.js");
const dir = mkdtempSync(join(tmpdir(), "berth-bench-"));
const db = join(dir, "berth.db");

// --- cluster: members registered straight through the engine ---------------------------------
{
  const store = await openStore(db);
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
  await store.close();
}
const created = spawnSync(
  process.execPath,
  [mainJs, "token", "create", "bench", "--admin", "--json", "--db", db],
  {
    encoding: "utf8",
  },
);
if (created.status !== 0) throw new Error(`token create failed: ${created.stderr}`);
const secret = JSON.parse(created.stdout).token;

// --- servers -------------------------------------------------------------------------------
async function startServer(index) {
  const log = join(dir, `berthd-${index}.log`);
  const profiling = values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof"]}`] : [];
  const child = spawn(
    process.execPath,
    [...profiling, mainJs, "--db", db, "--listen", "127.0.0.1:0", "--socket", "none", "--tick", "5"],
    { stdio: ["ignore", openSync(log, "w"), "inherit"] },
  );
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const line = readFileSync(log, "utf8")
      .split("\n")
      .find((l) => l.includes('"berthd listening"'));
    if (line) return { child, url: JSON.parse(line).url };
    if (child.exitCode !== null) throw new Error(`berthd exited with ${child.exitCode}`);
  }
  throw new Error("berthd did not start within 60 s");
}

/** utime + stime of a process, in ms (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const servers = [];
for (let i = 0; i < processes; i++) servers.push(await startServer(i));

let eventsReceived = 0;
const watchers = [];
if (values["watch-events"]) {
  for (const s of servers) {
    const socket = new WebSocket(`${s.url.replace(/^http/, "ws")}/1.0/events?all-projects=true`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    socket.on("message", () => eventsReceived++);
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    watchers.push(socket);
  }
}

let counter = 0;
function load(url, connections) {
  return autocannon({
    url: `${url}/1.0/instances`,
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
for (let round = 0; round < repeat; round++) {
  for (const connections of connectionCounts) {
    const cpuBefore = servers.map((s) => cpuMs(s.child.pid));
    const perServer = Math.max(1, Math.round(connections / processes));
    const results = await Promise.all(servers.map((s) => load(s.url, perServer)));
    const cpu = servers.reduce((sum, s, i) => sum + cpuMs(s.child.pid) - cpuBefore[i], 0);
    const ok = results.reduce((sum, r) => sum + r["2xx"], 0);
    rows.push({
      connections: perServer * processes,
      processes,
      "creates/s": Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
      "p50 ms": Math.max(...results.map((r) => r.latency.p50)),
      "p90 ms": Math.max(...results.map((r) => r.latency.p90)),
      "p99 ms": Math.max(...results.map((r) => r.latency.p99)),
      "server CPU ms/create": ok > 0 ? Math.round((cpu / ok) * 100) / 100 : null,
      "2xx": ok,
      non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
    });
  }
}
console.table(rows);
if (values["watch-events"]) {
  console.error(`events received by the watchers: ${eventsReceived}`);
  for (const socket of watchers) socket.close();
}

for (const s of servers) s.child.kill("SIGTERM");
await Promise.all(
  servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r() : s.child.on("exit", r)))),
);
{
  const store = await openStore(db);
  const report = await store.check();
  console.error(
    `consistency check: ok=${report.ok} ${JSON.stringify(report.counts)} violations=${report.violations.length}`,
  );
  await store.close();
}
rmSync(dir, { recursive: true, force: true });
