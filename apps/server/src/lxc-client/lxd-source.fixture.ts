/**
 * A stand-in for a real LXD server as the *source* of a migration: the
 * part of LXD's REST API the real `lxc` client reads from a source server
 * in a pull-mode `lxc copy src:NAME dst:NEW` (LXD client `CopyInstance`):
 * `GET /1.0` (its addresses and certificate), `GET /1.0/instances/NAME`,
 * `POST /1.0/instances/NAME` with `{"migration": true}` (answered with an
 * operation whose metadata holds the websocket secrets, as LXD answers),
 * and the operation itself. No data is ever sent: Berth, the destination,
 * places the instance and never opens the source's websockets. Every
 * request is recorded, so tests can say what the client asked.
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { errorResponse, syncResponse } from "@berth/api-types";
import { ensureServerCertificate } from "../trust/server-certificate.js";

export interface LxdSourceInstance {
  name: string;
  type?: "container" | "virtual-machine";
  architecture?: string;
  config?: Record<string, string>;
  devices?: Record<string, Record<string, string>>;
  profiles?: string[];
}

export interface LxdSource {
  /** `https://127.0.0.1:PORT`, for `lxc remote add`. */
  url: string;
  /** Every request as `METHOD path` with its parsed JSON body (or undefined). */
  requests: { method: string; path: string; body: unknown }[];
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function jsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

/** Starts the source on loopback with its own certificate (kept in `dir`), holding `instances`. */
export async function startLxdSource(dir: string, instances: LxdSourceInstance[]): Promise<LxdSource> {
  const certificate = await ensureServerCertificate(dir);
  const requests: LxdSource["requests"] = [];
  const operations = new Map<string, Record<string, unknown>>();
  let address = "";
  const instanceOf = (name: string) => {
    const found = instances.find((instance) => instance.name === name);
    if (found === undefined) return undefined;
    const config = found.config ?? {};
    return {
      name: found.name,
      type: found.type ?? "container",
      architecture: found.architecture ?? "x86_64",
      config,
      devices: found.devices ?? {},
      profiles: found.profiles ?? ["default"],
      ephemeral: false,
      stateful: false,
      description: "",
      created_at: "2026-01-01T00:00:00Z",
      last_used_at: "1970-01-01T00:00:00Z",
      expanded_config: config,
      expanded_devices: found.devices ?? {},
      status: "Stopped",
      status_code: 102,
      location: "none",
      project: "default",
    };
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "https://source");
    const body = await jsonBody(request);
    requests.push({ method: request.method ?? "", path: url.pathname, body });
    const path = url.pathname.replace(/\/$/, "");
    if (request.method === "GET" && path === "/1.0") {
      return send(
        response,
        200,
        syncResponse({
          config: {},
          api_extensions: [
            "instances",
            "container_only_migration",
            "container_push",
            "container_push_target",
          ],
          api_status: "stable",
          api_version: "1.0",
          auth: "trusted",
          public: false,
          auth_methods: ["tls"],
          environment: {
            addresses: [address],
            architectures: ["x86_64"],
            certificate: certificate.cert,
            certificate_fingerprint: certificate.fingerprint,
            server: "lxd",
            server_clustered: false,
            server_name: "source",
            server_version: "5.0.2",
            project: "default",
          },
        }),
      );
    }
    const instance = /^\/1\.0\/instances\/([^/]+)$/.exec(path);
    if (instance !== null) {
      const found = instanceOf(decodeURIComponent(instance[1] ?? ""));
      if (found === undefined) return send(response, 404, errorResponse(404, "Instance not found"));
      if (request.method === "GET") return send(response, 200, syncResponse(found));
      if (request.method === "POST" && (body as { migration?: boolean } | undefined)?.migration === true) {
        const id = randomUUID();
        const operation = {
          id,
          class: "websocket",
          description: "Migrating instance",
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
          status: "Running",
          status_code: 103,
          resources: { instances: [`/1.0/instances/${found.name}`] },
          // LXD's migration source secrets: the destination would open these websockets.
          metadata: { control: randomUUID(), fs: randomUUID() },
          may_cancel: false,
          err: "",
          location: "none",
        };
        operations.set(id, operation);
        return send(response, 202, {
          type: "async",
          status: "Operation created",
          status_code: 100,
          operation: `/1.0/operations/${id}`,
          error_code: 0,
          error: "",
          metadata: operation,
        });
      }
    }
    const operation = /^\/1\.0\/operations\/([^/]+)$/.exec(path);
    if (operation !== null && operations.has(operation[1] ?? "")) {
      if (request.method === "DELETE") {
        operations.delete(operation[1] ?? "");
        return send(response, 200, syncResponse({}));
      }
      return send(response, 200, syncResponse(operations.get(operation[1] ?? "")));
    }
    send(response, 404, errorResponse(404, "not found"));
  };
  const server: Server = createServer(
    { cert: certificate.cert, key: certificate.key },
    (request, response) => {
      handle(request, response).catch((error: unknown) =>
        send(response, 500, errorResponse(500, String(error))),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `https://${address}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
