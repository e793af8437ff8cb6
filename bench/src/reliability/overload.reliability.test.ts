/**
 * Overload is shed, not queued (#34): far more clients than berthd serves
 * at once, each on its own connection, while hundreds more trickle their
 * headers and never finish. The excess is answered at once with 503 and
 * `Retry-After` in the LXD envelope, `GET /1.0` keeps answering promptly,
 * the trickling connections are closed by the headers timeout, and the
 * process's memory stays bounded. Loopback only, bounded in time.
 *
 * The in-flight limit is lowered to 128 here (default 1024) so a burst this
 * machine can send in a few seconds passes it; the mechanism is the same.
 */
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";
import { startProber } from "./prober.js";

const MAX_IN_FLIGHT = 128;
const CLIENTS = sized(4000, 2000);
const SLOW_CLIENTS = sized(1000, 500);
/** From the end of the burst; berthd's headers timeout (10 s, apps/server http/listen.ts) runs from their first bytes. */
const SLOW_CLOSED_WITHIN_MS = 20_000;
const RSS_BOUND_MIB = 600;

const cluster = await smallCluster("overload", 4, {
  VCPU: { total: 100_000 },
  MEMORY_MB: { total: 100_000_000 },
});
afterAll(() => cluster.cleanup());

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/**
 * The clients, from a process of their own so that sending thousands of
 * requests does not slow this process's probes of `GET /1.0`: one create
 * each on a connection of its own (no keep-alive), all at once. Prints
 * each answer's status, Retry-After and (for a few 503s) the body, as JSON.
 */
const FLOOD = `
const http = require("node:http");
const [url, token, count] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const one = (i) => new Promise((resolve) => {
  const body = JSON.stringify({ name: "o" + i, config: { "limits.cpu": "1", "limits.memory": "64MiB" } });
  const req = http.request(url + "/1.0/instances", { method: "POST", agent, timeout: 120000, headers: {
    authorization: "Bearer " + token, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
    (res) => { let text = ""; res.on("data", (c) => (text += c)); res.on("end", () =>
      resolve({ status: res.statusCode, retryAfter: res.headers["retry-after"], body: text })); });
  // A connection refused or cut counts as status 0: the test asserts there are none.
  req.on("error", (e) => resolve({ status: 0, body: String(e) }));
  req.on("timeout", () => req.destroy(new Error("client timeout")));
  req.end(body);
});
Promise.all(Array.from({ length: Number(count) }, (_, i) => one(i))).then((answers) => {
  process.stdout.write(JSON.stringify(answers));
});
`;

async function flood(server: Berthd, clients: number): Promise<Answer[]> {
  const child = spawn(process.execPath, ["-e", FLOOD, server.url, server.token, String(clients)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  await new Promise((resolve) => child.on("exit", resolve));
  return JSON.parse(out) as Answer[];
}

/**
 * A client that sends half a request's headers and then nothing. `sent`:
 * once they are written; `closed`: when berthd closes it, ms after `sent`.
 */
function trickle(server: Berthd): { socket: Socket; sent: Promise<void>; closed: Promise<number> } {
  const { hostname, port } = new URL(server.url);
  let wrote = 0;
  const socket = connect(Number(port), hostname);
  const sent = new Promise<void>((resolve) =>
    socket.once("connect", () =>
      socket.write(
        "POST /1.0/instances HTTP/1.1\r\nHost: berth\r\nContent-Type: application/json\r\n",
        () => {
          wrote = performance.now();
          resolve();
        },
      ),
    ),
  );
  socket.on("error", () => undefined);
  // Read what berthd answers (its 408), or the socket never sees the end and never closes.
  socket.resume();
  const closed = new Promise<number>((resolve) =>
    socket.on("close", () => resolve(performance.now() - wrote)),
  );
  return { socket, sent, closed };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

describe("overload against a real berthd", () => {
  it(`${CLIENTS} clients at once and ${SLOW_CLIENTS} trickling ones: the excess gets 503 + Retry-After, GET /1.0 answers, memory stays bounded`, async () => {
    const server = await Berthd.start({
      db: cluster.db,
      token: cluster.token,
      logLevel: "warn",
      env: { BERTH_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT) },
    });
    try {
      const before = server.memory();
      const slow = Array.from({ length: SLOW_CLIENTS }, () => trickle(server));
      await Promise.all(slow.map((s) => s.sent));
      const prober = startProber(server, "/1.0", 20);
      const started = performance.now();
      const answers = await flood(server, CLIENTS);
      const burstMs = performance.now() - started;
      const during = server.memory();
      const { latencies, failures } = await prober.stop();
      const slowClosedMs = await Promise.race([
        Promise.all(slow.map((s) => s.closed)),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), SLOW_CLOSED_WITHIN_MS)),
      ]);
      for (const s of slow) s.socket.destroy();

      const byStatus = new Map<number, number>();
      for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      const shed = answers.filter((a) => a.status === 503);
      const sorted = [...latencies].sort((a, b) => a - b);
      recordFigures("overload shed", {
        clients: CLIENTS,
        "trickling clients": SLOW_CLIENTS,
        "in-flight limit": MAX_IN_FLIGHT,
        statuses: [...byStatus].map(([status, n]) => `${status}: ${n}`).join(", "),
        "burst wall time (ms)": Math.round(burstMs),
        "GET /1.0 probes": latencies.length,
        "GET /1.0 p50 (ms)": Math.round(percentile(sorted, 50) * 10) / 10,
        "GET /1.0 p99 (ms)": Math.round(percentile(sorted, 99) * 10) / 10,
        "RSS before / after burst / peak (MiB)": `${before.rssMiB} / ${during.rssMiB} / ${during.peakRssMiB}`,
        "trickling clients closed after (ms, slowest)":
          slowClosedMs === null ? "not within bound" : Math.round(Math.max(...slowClosedMs)),
      });

      // Every client got an answer: created, or told to come back; nothing cut, nothing failed.
      expect([...byStatus.keys()].sort()).toEqual([201, 503].filter((s) => byStatus.has(s)));
      expect(byStatus.get(201) ?? 0).toBeGreaterThan(0);
      expect(shed.length).toBeGreaterThan(0);
      for (const answer of shed.slice(0, 20)) {
        expect(answer.retryAfter).toBe("1");
        expect(JSON.parse(answer.body)).toMatchObject({ type: "error", error_code: 503 });
        expect(JSON.parse(answer.body).error).toMatch(/^Server busy: /);
      }
      // Liveness answered throughout, promptly: within 2 s, or within half the burst's
      // wall time when the host is so loaded that the burst itself takes longer (a
      // shared 2-core CI machine measured 2.004 s beside a longer burst); a probe
      // queued behind the shed requests would wait the whole burst.
      expect(failures).toEqual([]);
      expect(latencies.length).toBeGreaterThan(0);
      expect(percentile(sorted, 99)).toBeLessThan(Math.max(2000, burstMs / 2));
      // The trickling clients were cut by the headers timeout, and memory stayed bounded.
      expect(slowClosedMs).not.toBeNull();
      expect(during.peakRssMiB).toBeLessThan(RSS_BOUND_MIB);
      expect((await server.request("GET", "/1.0")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
