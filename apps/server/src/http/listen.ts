import { chmodSync, chownSync, existsSync, mkdirSync, unlinkSync } from "node:fs";
import type { Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect, type Server as NetServer } from "node:net";
import { dirname } from "node:path";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { answerClientErrorsWithEnvelope } from "./client-error.js";
import { dualProtocolServer } from "./dual-protocol.js";
import { tagListener } from "./listener.js";
import type { ListenerKind, ServerEnv } from "./server-env.js";
import { websocketsOf } from "./websockets.js";

export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface ListenOptions {
  /**
   * `host:port` for TCP; port 0 picks a free one (tests). Omit to serve on
   * the socket only. With `tls` the port speaks HTTPS and plain HTTP alike
   * (the first byte of a connection tells them apart).
   */
  tcp?: { host: string; port: number; tls?: TlsFiles };
  /** Path of the Unix socket; omit to serve on TCP only. */
  socketPath?: string;
  /** Mode of the socket file: who may act as a local admin. */
  socketMode?: number;
  /** Group id given the socket file (its members may use it, mode 0660); default: the process's group. */
  socketGroup?: number;
  /** How long a graceful stop waits for in-flight requests before cutting connections. */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  /** The TCP address actually bound (useful with port 0), as a URL such as `http://127.0.0.1:8443`. */
  url: string | undefined;
  /** The same address over HTTPS (`https://127.0.0.1:8443`) when the listener has a certificate. */
  httpsUrl: string | undefined;
  socketPath: string | undefined;
  /**
   * Moves the TCP port to another address (`core.https_address`), or closes
   * it (undefined). When the new address cannot be bound, the old one is
   * opened again and the error thrown.
   */
  moveTcp(to: { host: string; port: number } | undefined): Promise<void>;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

function adaptorFor(app: Hono<ServerEnv>, listener: ListenerKind, tls: TlsFiles | undefined): Server {
  const server = plainAdaptorFor(app, listener, tls);
  // Websocket upgrades (GET /1.0/events) go through the app too, tagged with their listener.
  const inject = websocketsOf(app);
  if (inject !== undefined) {
    server.prependListener("upgrade", (request) => tagListener(request, listener));
    inject(server);
  }
  return server;
}

function plainAdaptorFor(app: Hono<ServerEnv>, listener: ListenerKind, tls: TlsFiles | undefined): Server {
  // Tag each request with the listener it came in on: the socket trusts file permissions, TCP needs a token.
  const fetch = (request: Request, env: unknown) =>
    app.fetch(request, { ...(env as HttpBindings), listener });
  const server = createServerFor(fetch, tls);
  answerClientErrorsWithEnvelope(server);
  // Node's 5 s keep-alive timer fires first when the event loop comes back from a
  // stall longer than that (a scriptlet run may hold it 10 s), and closes kept-alive
  // connections whose next request already arrived: the client sees ECONNRESET.
  // Idle connections are kept longer than the longest per-run deadline instead.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A client that trickles its headers or body holds a connection and its buffers: it gets
  // these long to send them, then its connection is closed (checked every CHECK_INTERVAL_MS).
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return server;
}

/** Longer than the longest per-run scriptlet deadline (10 s), with room for scheduling on a busy host. */
const KEEP_ALIVE_MS = 30_000;

/** To send a request's headers: any real client does it in one write. */
const HEADERS_TIMEOUT_MS = 10_000;

/** To send a whole request: a body at the default 1 MiB limit arrives in far less on any working link. */
const REQUEST_TIMEOUT_MS = 60_000;

/** How often Node looks for requests past those timeouts (its default, 30 s, lets slow clients pile up). */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Connections one listener keeps open at once; past it new ones are closed
 * on arrival. Far more than the in-flight limit (which answers the excess
 * with 503), so a burst of clients is told to retry rather than cut off,
 * yet a bound on the memory and descriptors idle connections hold.
 */
export const MAX_CONNECTIONS = 10_000;

function createServerFor(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  tls: TlsFiles | undefined,
): Server {
  if (tls) {
    return createAdaptorServer({
      fetch,
      createServer: createHttpsServer,
      // LXD's clients authenticate with a TLS client certificate; others send a bearer token instead,
      // so a certificate is asked for, never required (berthd decides whom it trusts).
      serverOptions: {
        cert: tls.cert,
        key: tls.key,
        requestCert: true,
        rejectUnauthorized: false,
        connectionsCheckingInterval: CHECK_INTERVAL_MS,
      },
    }) as Server;
  }
  return createAdaptorServer({
    fetch,
    serverOptions: { connectionsCheckingInterval: CHECK_INTERVAL_MS },
  }) as Server;
}

function listenOn(
  server: Server | NetServer,
  target: { port: number; host: string } | string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once("error", onError);
    const done = () => {
      server.off("error", onError);
      resolve();
    };
    server.maxConnections = MAX_CONNECTIONS;
    if (typeof target === "string") server.listen(target, done);
    else server.listen(target.port, target.host, done);
  });
}

/** A socket file left by a crashed berthd is removed; one that still answers belongs to a live server. */
async function clearStaleSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  const alive = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (alive) throw new Error(`Another server is already listening on ${path}`);
  unlinkSync(path);
}

function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    // close() stops accepting and drops idle keep-alive connections; busy ones finish their request.
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A listening server and, behind a dual-protocol port, the HTTP and HTTPS servers it hands connections to. */
interface Listening {
  server: Server | NetServer;
  inner: Server[];
}

function closeListening({ server, inner }: Listening, graceMs: number): Promise<void> {
  if (inner.length === 0) return closeGracefully(server as Server, graceMs);
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const timer = setTimeout(() => {
      for (const one of inner) one.closeAllConnections();
    }, graceMs);
    timer.unref();
    // Drops their idle keep-alive connections; they never listened themselves, so the error is expected.
    for (const one of inner) one.close(() => undefined);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The TCP port: plain HTTP, or HTTP and HTTPS on one port when there is a certificate. */
function tcpServer(app: Hono<ServerEnv>, tls: TlsFiles | undefined): Listening {
  if (tls === undefined) return { server: adaptorFor(app, "tcp", undefined), inner: [] };
  const plain = adaptorFor(app, "tcp", undefined);
  const secure = adaptorFor(app, "tcp", tls);
  return { server: dualProtocolServer(plain, secure), inner: [plain, secure] };
}

/** Opens the TCP port at `host:port`; answers it with its URLs. */
async function openTcp(
  app: Hono<ServerEnv>,
  at: { host: string; port: number },
  tls: TlsFiles | undefined,
): Promise<{ listening: Listening; url: string; httpsUrl: string | undefined }> {
  const tcp = tcpServer(app, tls);
  await listenOn(tcp.server, at);
  // The servers behind the port track their connections (for a graceful stop) once "listening".
  for (const one of tcp.inner) one.emit("listening");
  const address = tcp.server.address();
  let host = at.host;
  let port = at.port;
  if (address && typeof address === "object") {
    host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    port = address.port;
  }
  return {
    listening: tcp,
    url: `http://${host}:${port}`,
    httpsUrl: tls ? `https://${host}:${port}` : undefined,
  };
}

export async function listen(app: Hono<ServerEnv>, options: ListenOptions): Promise<RunningServer> {
  const servers: Listening[] = [];
  let tcp: { listening: Listening; url: string; httpsUrl: string | undefined } | undefined;
  let socketPath: string | undefined;
  const graceMs = options.shutdownGraceMs ?? 10_000;
  try {
    if (options.socketPath !== undefined) {
      socketPath = options.socketPath;
      mkdirSync(dirname(socketPath), { recursive: true, mode: 0o750 });
      await clearStaleSocket(socketPath);
      const server = adaptorFor(app, "unix", undefined);
      await listenOn(server, socketPath);
      chmodSync(socketPath, options.socketMode ?? 0o660);
      // -1 keeps the owner: only the group changes.
      if (options.socketGroup !== undefined) chownSync(socketPath, -1, options.socketGroup);
      servers.push({ server, inner: [] });
    }
    if (options.tcp) tcp = await openTcp(app, options.tcp, options.tcp.tls);
  } catch (err) {
    await Promise.all(servers.map((s) => closeListening(s, 0)));
    throw err;
  }
  const tls = options.tcp?.tls;
  return {
    get url() {
      return tcp?.url;
    },
    get httpsUrl() {
      return tcp?.httpsUrl;
    },
    socketPath,
    moveTcp: async (to) => {
      const old = tcp;
      // The old port stops accepting first (the new address may be the same port on more
      // addresses); its connections, the caller's own included, finish on their own.
      const draining = old === undefined ? Promise.resolve() : closeListening(old.listening, graceMs);
      tcp = undefined;
      if (to === undefined) return draining;
      try {
        tcp = await openTcp(app, to, tls);
      } catch (error) {
        if (old !== undefined) {
          const back = new URL(old.url);
          tcp = await openTcp(
            app,
            { host: back.hostname.replace(/^\[|\]$/g, ""), port: Number(back.port) },
            tls,
          );
        }
        throw error;
      }
    },
    close: async () => {
      await Promise.all([...servers, ...(tcp ? [tcp.listening] : [])].map((s) => closeListening(s, graceMs)));
    },
  };
}
