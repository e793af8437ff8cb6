/**
 * The real berthd binary (the one apps/server ships, dist/berthd/berthd.js) as a child process on
 * loopback: start it on a database file, wait until it answers, read its
 * memory from /proc, stop it (gracefully or with SIGKILL).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Agent } from "node:http";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "@berth/adapter-sqlite";
import { issueToken } from "@berth/server";
import { requestText } from "./http-text.js";

/** Clock ticks per second of /proc times: 100 on every Linux architecture Node supports. */
const USER_HZ = 100;

/**
 * The berthd the package ships: its bundle (dist/berthd/berthd.js), or dist/main.js in a build
 * from before berthd was bundled (a baseline such as d77d930).
 */
export const BERTHD_MAIN = shippedBerthd(dirname(fileURLToPath(import.meta.resolve("@berth/server"))));

function shippedBerthd(dist: string): string {
  const bundle = join(dist, "berthd", "berthd.js");
  return existsSync(bundle) ? bundle : join(dist, "main.js");
}

/**
 * Issues a token into the database's token table, as `berthd token create`
 * does. Call it before starting berthd on `db`: a running berthd would see the
 * new row too, but the bench never needs that.
 */
export async function createToken(
  db: string,
  name: string,
  scope: { admin: true } | { admin: false; projects: string[] } = { admin: true },
): Promise<string> {
  const store = await openStore(db);
  try {
    const { secret } = await issueToken(store.tokens, name, scope);
    return secret;
  } finally {
    await store.close();
  }
}

/**
 * An admin token issued by another berthd build (`main`, its dist/main.js)
 * with its own `berthd token create`, so the database it creates has that
 * build's schema (a baseline may predate this workspace's migrations).
 */
export function createTokenWith(main: string, db: string, name: string): string {
  const args = [main, "token", "create", name, "--admin", "--db", db, "--json"];
  const create = (extra: string[]) =>
    execFileSync(process.execPath, [...args, ...extra], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  let output: string;
  try {
    // A new database: today's berthd creates it only when told to.
    output = create(["--init"]);
  } catch (error) {
    // A baseline older than --init creates it unasked (and refuses the flag).
    if (!String((error as { stderr?: unknown }).stderr).includes("--init")) throw error;
    output = create([]);
  }
  return (JSON.parse(output) as { token: string }).token;
}

/** A free loopback port (the kernel picks it; berthd then binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Extra node flags for every berthd the benches start, split on spaces, e.g.
 * `BENCH_BERTHD_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` to profile
 * the server under a bench's load.
 */
export const BERTHD_NODE_ARGS_VARIABLE = "BENCH_BERTHD_NODE_ARGS";

export interface BerthdOptions {
  db: string;
  token: string;
  logLevel?: string;
  /** Extra environment. */
  env?: Record<string, string>;
  /** Extra node flags (e.g. --cpu-prof to profile the server). */
  nodeArgs?: string[];
  /** Another build's berthd (its dist/main.js) instead of this workspace's, e.g. a baseline. */
  main?: string;
  /** Give up waiting for the first answer after this long. */
  startTimeoutMs?: number;
}

export interface MemoryFigures {
  /** Resident set size now (VmRSS), MiB. */
  rssMiB: number;
  /** Peak resident set size (VmHWM), MiB. */
  peakRssMiB: number;
}

/** The LXD envelope berthd answers with (`metadata` differs per route). */
export interface Envelope {
  type?: string;
  status_code?: number;
  error_code?: number;
  error?: string;
  metadata?: unknown;
}

export class Berthd {
  /** Everything berthd printed on stdout and stderr (its JSON log lines), for the secrets check. */
  output = "";
  private exited: Promise<number | null>;
  /** Connections kept open between requests, as a real client would (and as autocannon does). */
  private readonly agent = new Agent({ keepAlive: true });

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly token: string,
    /** Spawn to first successful `GET /1.0`, ms. */
    public startupMs: number,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once("exit", (code) => resolve(code));
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(options: BerthdOptions): Promise<Berthd> {
    const port = await freePort();
    // Node refuses --cpu-prof in NODE_OPTIONS; this variable reaches every berthd a bench starts.
    const fromEnvironment = (process.env[BERTHD_NODE_ARGS_VARIABLE] ?? "").split(/\s+/).filter(Boolean);
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        ...fromEnvironment,
        ...(options.nodeArgs ?? []),
        options.main ?? BERTHD_MAIN,
        "--db",
        options.db,
        "--listen",
        `127.0.0.1:${port}`,
        "--socket",
        "none",
        "--log-level",
        options.logLevel ?? "info",
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } },
    );
    const server = new Berthd(child, `http://127.0.0.1:${port}`, options.token, 0);
    child.stdout!.on("data", (chunk: Buffer) => {
      server.output += chunk.toString("utf8");
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      server.output += chunk.toString("utf8");
    });
    const deadline = started + (options.startTimeoutMs ?? 60_000);
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(
          `berthd exited with ${child.exitCode} before answering:\n${server.output.slice(-2000)}`,
        );
      }
      try {
        const response = await fetch(`${server.url}/1.0`, {
          headers: { authorization: `Bearer ${options.token}` },
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) break;
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`berthd did not answer within ${options.startTimeoutMs ?? 60_000} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    server.startupMs = Math.round(performance.now() - started);
    return server;
  }

  /**
   * CPU time (user + system) berthd has used so far, in ms, from
   * /proc/PID/stat. Its resolution is one clock tick (10 ms at the usual
   * USER_HZ of 100), so compare it over many requests.
   */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at ") ": utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (!Number.isFinite(ticks)) throw new Error(`unreadable /proc/${this.pid}/stat`);
    return (ticks * 1000) / USER_HZ;
  }

  /**
   * CPU time berthd's threads have run so far, in ms at nanosecond
   * resolution: the sum over /proc/PID/task of each thread's schedstat (time on a CPU), for
   * requests too short for `cpuMs`'s clock ticks.
   */
  cpuPreciseMs(): number {
    let ns = 0;
    for (const task of readdirSync(`/proc/${this.pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${this.pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended between the listing and the read
      }
    }
    return ns / 1e6;
  }

  /** VmRSS / VmHWM of the berthd process (Linux /proc). */
  memory(): MemoryFigures {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kib = (field: string) => {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
      if (match === null) throw new Error(`no ${field} in /proc/${this.pid}/status`);
      return Number(match[1]);
    };
    return {
      rssMiB: Math.round((kib("VmRSS") / 1024) * 10) / 10,
      peakRssMiB: Math.round((kib("VmHWM") / 1024) * 10) / 10,
    };
  }

  /**
   * A request with the admin token; JSON body in, parsed envelope out. Sent
   * with node:http over kept-alive connections: fetch (undici) spends
   * 0.5-1 ms of client CPU per request on this machine, which a latency
   * sample would otherwise count against the server.
   */
  async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: Envelope }> {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const { status, text } = await requestText(
      this.agent,
      `${this.url}${path}`,
      method,
      { authorization: `Bearer ${this.token}` },
      payload,
    );
    let json: Envelope;
    try {
      json = JSON.parse(text) as Envelope;
    } catch {
      json = { error: `not JSON: ${text.slice(0, 200)}` };
    }
    return { status, json };
  }

  /** The whole response with its headers (for checks of Retry-After and the like). */
  async fetch(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; json: Envelope }> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Envelope };
  }

  /** SIGSTOP: the process stays, frozen, with whatever it holds (connections, locks). */
  pause(): void {
    this.child.kill("SIGSTOP");
  }

  resume(): void {
    this.child.kill("SIGCONT");
  }

  /** SIGTERM and wait: berthd finishes in-flight requests and closes the database. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) {
      this.child.kill("SIGCONT");
      this.child.kill("SIGTERM");
    }
    const code = await this.exited;
    this.agent.destroy();
    return code;
  }

  /** SIGKILL and wait: nothing gets to finish. */
  async kill(): Promise<number | null> {
    if (this.child.exitCode === null) {
      this.child.kill("SIGKILL");
      this.child.kill("SIGCONT");
    }
    await this.exited;
    this.agent.destroy();
    return this.child.exitCode;
  }
}
