import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { BerthTransportError } from "../errors.js";
import type { Transport } from "../transport.js";

/**
 * Where berthd is from Node: a URL (TCP, with a token and for TLS a pinned CA) or a Unix socket.
 */
export interface NodeEndpoint {
  /** `http://host:port` or `https://host:port`; when absent, the Unix socket is used. */
  url?: string;
  /**
   * berthd's Unix socket, used when `url` is absent; the socket's permissions are the
   * authentication.
   */
  socketPath?: string;
  /** Bearer token for TCP (`berthd token create`); not needed on the socket. */
  token?: string;
  /** PEM of the CA (or the self-signed certificate) that signed berthd's TLS certificate. */
  ca?: string | Buffer;
  /**
   * Give up on a request after this long (default 60 s); fails with `BerthTransportError`
   * `ETIMEDOUT`.
   */
  timeoutMs?: number;
}

/**
 * A transport on Node's own http modules: over TCP(+TLS, trusting `ca`)
 * or berthd's Unix socket, which the Fetch API reaches neither.
 */
export function nodeTransport(endpoint: NodeEndpoint): Transport {
  let base: URL | undefined;
  if (endpoint.url !== undefined) {
    base = new URL(endpoint.url);
    if (base.protocol !== "http:" && base.protocol !== "https:") {
      throw new BerthTransportError(
        `Unsupported URL scheme "${base.protocol}" in ${endpoint.url}: use http or https`,
      );
    }
  } else if (endpoint.socketPath === undefined) {
    throw new BerthTransportError("No server given: set a URL or a Unix socket path");
  }
  const secure = base?.protocol === "https:";
  const where = endpoint.url ?? `unix:${endpoint.socketPath}`;
  const timeoutMs = endpoint.timeoutMs ?? 60_000;
  return (request) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(request.body));
    }
    if (endpoint.token !== undefined) headers.authorization = `Bearer ${endpoint.token}`;
    const options: RequestOptions =
      base !== undefined
        ? {
            method: request.method,
            host: base.hostname.replace(/^\[|\]$/g, ""),
            port: base.port === "" ? (secure ? 443 : 80) : Number(base.port),
            path: request.path,
            headers,
            ...(secure && endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
          }
        : { method: request.method, socketPath: endpoint.socketPath, path: request.path, headers };
    return new Promise((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(options, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const header = (name: string) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          };
          resolve({ status: res.statusCode ?? 0, header, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", (err) =>
          reject(new BerthTransportError(`Reading the answer from ${where} failed: ${err.message}`)),
        );
      });
      req.setTimeout(timeoutMs, () => {
        req.destroy(new BerthTransportError(`No answer from ${where} within ${timeoutMs} ms`, "ETIMEDOUT"));
      });
      req.on("error", (err: NodeJS.ErrnoException) => {
        if (err instanceof BerthTransportError) return reject(err);
        reject(
          new BerthTransportError(`Cannot reach berthd at ${where}: ${err.message}`, err.code, {
            cause: err,
          }),
        );
      });
      if (request.body !== undefined) req.write(request.body);
      req.end();
    });
  };
}
