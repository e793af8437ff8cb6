import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { openStore } from "@berth/adapter-sqlite";
import { BerthApi } from "@berth/client/node";
import { type Clock, Engine } from "@berth/engine";
import { expect } from "vitest";
import { createApp } from "../app/app.js";
import { issueToken } from "../auth/issue-token.js";
import { engineLoggerFor } from "../daemon/engine-logger.js";
import { createLogger } from "../daemon/logging.js";
import { usageOf } from "../daemon/open-backend.js";
import { listen, type RunningServer, type TlsFiles } from "../http/listen.js";
import { ServerMetrics } from "../metrics/server-metrics.js";
import { ensureServerCertificate } from "../trust/server-certificate.js";
import { Trust } from "../trust/trust.js";

/** An LXD envelope as a test reads it (any field, any depth). */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the answer holds
export type Envelope = Record<string, any>;

export interface TestServer {
  /** Plain HTTP. */
  url: string;
  /** The same port over HTTPS (with `tls` or `lxdTrust`). */
  httpsUrl: string | undefined;
  socketPath: string;
  dir: string;
  engine: Engine;
  adminToken: string;
  /** Restricted to project "team". */
  teamToken: string;
  /** The trust store (the database's) and berthd's certificate fingerprint (with `lxdTrust`). */
  trust: Trust;
  /** Parsed JSON log lines written so far. */
  logs: Record<string, unknown>[];
  /** Client over TCP with the given token (none: no Authorization header). */
  tcp(token?: string): BerthApi;
  /** Client over the Unix socket (no token). */
  local(): BerthApi;
  /** A JSON request over TCP as admin: the status and the parsed envelope. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope }>;
  /** Raw fetch over TCP. */
  fetch(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  clock?: Clock;
  bodyLimitBytes?: number;
  bodyMemoryBytes?: number;
  tls?: TlsFiles;
  /** Placement's noauth2 on /placement (`x-auth-token: admin`), as `--placement-noauth`. */
  placementNoauth?: boolean;
  /** How long finished LXD operations stay readable. */
  operationRetentionMs?: number;
  /** The web console's assets to serve at /ui/ (none: /ui/ says the console is not built). */
  consoleDir?: string;
  /** HTTPS the LXD way: berthd's own certificate in the temp dir, trusted client certificates, tokens. */
  lxdTrust?: boolean;
}

/**
 * A real berthd for tests: real temp SQLite file, real engine, real TCP
 * listener on an ephemeral loopback port and a real Unix socket.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "berthd-test-"));
  const db = join(dir, "berth.db");
  const store = await openStore(db);
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n"))
        if (line.trim() !== "") logs.push(JSON.parse(line));
      callback();
    },
  });
  const logger = createLogger({ level: "debug", destination: sink });
  const engine = await Engine.open({
    store,
    logger: engineLoggerFor(logger),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const tokens = store.tokens;
  const metrics = new ServerMetrics({
    engine: () => engine.metrics(),
    usage: async () => usageOf(engine),
  });
  const serverCertificate = options.lxdTrust === true ? await ensureServerCertificate(dir) : undefined;
  const trust = new Trust({ serverFingerprint: serverCertificate?.fingerprint ?? "", store: store.trust });
  const tls = serverCertificate ?? options.tls;
  const app = createApp({
    engine,
    tokens,
    trust,
    logger,
    metrics,
    ...(options.bodyLimitBytes !== undefined ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
    ...(options.bodyMemoryBytes !== undefined ? { bodyMemoryBytes: options.bodyMemoryBytes } : {}),
    ...(options.placementNoauth !== undefined ? { placementNoauth: options.placementNoauth } : {}),
    ...(options.operationRetentionMs !== undefined
      ? { operationRetentionMs: options.operationRetentionMs }
      : {}),
    ...(options.consoleDir !== undefined ? { consoleDir: options.consoleDir } : {}),
  });
  const socketPath = join(dir, "berth.sock");
  const running: RunningServer = await listen(app, {
    tcp: { host: "127.0.0.1", port: 0, ...(tls ? { tls } : {}) },
    socketPath,
    shutdownGraceMs: 2_000,
  });
  const url = running.url as string;
  if (running.httpsUrl !== undefined) trust.addresses = [new URL(running.httpsUrl).host];
  const admin = await issueToken(tokens, "admin", { admin: true });
  const team = await issueToken(tokens, "team", { admin: false, projects: ["team"] });
  return {
    url,
    httpsUrl: running.httpsUrl,
    socketPath,
    dir,
    engine,
    adminToken: admin.secret,
    teamToken: team.secret,
    trust,
    logs,
    tcp: (token) => new BerthApi({ url, ...(token !== undefined ? { token } : {}) }),
    local: () => new BerthApi({ socketPath }),
    call: async (method, path, body) => {
      const headers = new Headers({ authorization: `Bearer ${admin.secret}` });
      if (body !== undefined) headers.set("content-type", "application/json");
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Envelope };
    },
    fetch: (path, init = {}) => {
      const { token, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (token !== undefined) merged.set("authorization", `Bearer ${token}`);
      if (rest.body !== undefined && !merged.has("content-type"))
        merged.set("content-type", "application/json");
      return fetch(`${url}${path}`, { ...rest, headers: merged });
    },
    close: async () => {
      await running.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts that the request is refused with `status` and exactly `error` (the LXD envelope's text). */
export async function expectRefusal(
  server: TestServer,
  request: { method: string; path: string; body?: unknown },
  status: number,
  error: string,
): Promise<void> {
  const answer = await server.call(request.method, request.path, request.body);
  expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error });
}

/** The log lines of a dry run of `body` under the proposed scriptlet `source` (X-Berth-Scriptlet). */
export async function dryRunLogs(server: TestServer, source: string, body: unknown): Promise<string[]> {
  const response = await server.fetch("/1.0/instances?dry_run=true", {
    method: "POST",
    token: server.adminToken,
    headers: { "x-berth-scriptlet": Buffer.from(source, "utf8").toString("base64") },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as { metadata: { log: { message: string }[] } };
  return result.metadata.log.map((line) => line.message);
}

/** A heartbeat body (LXD ClusterMemberState) for a member with `memoryMb` of RAM. */
export function memberState(memoryMb = 65536): Record<string, unknown> {
  const total = memoryMb * 1024 * 1024;
  return {
    sysinfo: {
      uptime: 100,
      load_averages: [0.1, 0.1, 0.1],
      total_ram: total,
      free_ram: Math.floor(total / 2),
      shared_ram: 0,
      buffered_ram: 0,
      total_swap: 0,
      free_swap: 0,
      processes: 10,
    },
    storage_pools: {
      default: { space: { used: 0, total: 1_000_000_000_000 }, inodes: { used: 0, total: 1000 } },
    },
  };
}

/** Registers members with explicit VCPU/MEMORY_MB/DISK_GB inventories through the API. */
export async function addMembers(
  api: BerthApi,
  members: { name: string; cpus?: number; memoryMb?: number; diskGb?: number; groups?: string[] }[],
): Promise<void> {
  for (const m of members) {
    await api.members.create({
      server_name: m.name,
      architecture: "x86_64",
      ...(m.groups ? { groups: m.groups } : {}),
    });
    const { generation } = await api.getInventories(m.name);
    await api.putInventories(m.name, {
      generation,
      inventories: {
        VCPU: { total: m.cpus ?? 8 },
        MEMORY_MB: { total: m.memoryMb ?? 16384 },
        DISK_GB: { total: m.diskGb ?? 500 },
      },
    });
  }
}

/** A small LXD `api.Resources` report: `threads` CPU threads and `memoryGiB` of RAM. */
export function memberResources(threads = 4, memoryGiB = 16): Record<string, unknown> {
  const total = memoryGiB * 1024 ** 3;
  return {
    cpu: {
      architecture: "x86_64",
      sockets: [
        {
          name: "Test CPU",
          vendor: "GenuineIntel",
          socket: 0,
          cores: [
            {
              core: 0,
              die: 0,
              threads: Array.from({ length: threads }, (_, id) => ({
                id,
                numa_node: 0,
                thread: id,
                online: true,
                isolated: false,
              })),
              frequency: 2000,
            },
          ],
          frequency: 2000,
        },
      ],
      total: threads,
    },
    memory: { nodes: [], hugepages_total: 0, hugepages_used: 0, hugepages_size: 2097152, used: 0, total },
    gpu: { cards: [], total: 0 },
    network: { cards: [], total: 0 },
    storage: { disks: [], total: 0 },
    usb: { devices: [], total: 0 },
    pci: { devices: [], total: 0 },
    system: { uuid: "00000000-0000-4000-8000-000000000001", vendor: "Test", type: "physical" },
  };
}
