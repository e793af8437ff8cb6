import { chmodSync, existsSync, mkdirSync, unlinkSync } from "node:fs";
import type { Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect } from "node:net";
import { dirname } from "node:path";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { tagListener } from "./http/listener.js";
import type { ListenerKind, ServerEnv } from "./server-env.js";
import { websocketsOf } from "./websockets.js";

export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface ListenOptions {
  /** `host:port` for TCP; port 0 picks a free one (tests). Omit to serve on the socket only. */
  tcp?: { host: string; port: number; tls?: TlsFiles };
  /** Path of the Unix socket; omit to serve on TCP only. */
  socketPath?: string;
  /** Mode of the socket file: who may act as a local admin. */
  socketMode?: number;
  /** How long a graceful stop waits for in-flight requests before cutting connections. */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  /** The TCP address actually bound (useful with port 0), as a URL such as `http://127.0.0.1:8443`. */
  url: string | undefined;
  socketPath: string | undefined;
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
  if (tls) {
    return createAdaptorServer({
      fetch,
      createServer: createHttpsServer,
      serverOptions: { cert: tls.cert, key: tls.key },
    }) as Server;
  }
  return createAdaptorServer({ fetch }) as Server;
}

function listenOn(server: Server, target: { port: number; host: string } | string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once("error", onError);
    const done = () => {
      server.off("error", onError);
      resolve();
    };
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

export async function listen(app: Hono<ServerEnv>, options: ListenOptions): Promise<RunningServer> {
  const servers: Server[] = [];
  let url: string | undefined;
  let socketPath: string | undefined;
  try {
    if (options.socketPath !== undefined) {
      socketPath = options.socketPath;
      mkdirSync(dirname(socketPath), { recursive: true, mode: 0o750 });
      await clearStaleSocket(socketPath);
      const server = adaptorFor(app, "unix", undefined);
      await listenOn(server, socketPath);
      chmodSync(socketPath, options.socketMode ?? 0o660);
      servers.push(server);
    }
    if (options.tcp) {
      const server = adaptorFor(app, "tcp", options.tcp.tls);
      await listenOn(server, { host: options.tcp.host, port: options.tcp.port });
      const address = server.address();
      if (address && typeof address === "object") {
        const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
        url = `${options.tcp.tls ? "https" : "http"}://${host}:${address.port}`;
      }
      servers.push(server);
    }
  } catch (err) {
    await Promise.all(servers.map((s) => closeGracefully(s, 0)));
    throw err;
  }
  const graceMs = options.shutdownGraceMs ?? 10_000;
  return {
    url,
    socketPath,
    close: async () => {
      await Promise.all(servers.map((s) => closeGracefully(s, graceMs)));
    },
  };
}
