import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { BerthTransportError } from "./errors.js";

export interface Endpoint {
  /** `http://host:port` or `https://host:port`; when absent, the Unix socket is used. */
  url?: string;
  socketPath?: string;
  token?: string;
  /** PEM of the CA (or the self-signed certificate) that signed berthd's TLS certificate. */
  ca?: string | Buffer;
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

/**
 * One HTTP exchange over TCP(+TLS) or the Unix socket, with node's own
 * http modules so the client has no dependencies and works in any Node tool.
 */
export function send(
  endpoint: Endpoint,
  method: string,
  pathWithQuery: string,
  body: string | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { accept: "application/json", ...extraHeaders };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  if (endpoint.token !== undefined) headers.authorization = `Bearer ${endpoint.token}`;
  let options: RequestOptions;
  let secure = false;
  if (endpoint.url !== undefined) {
    const base = new URL(endpoint.url);
    secure = base.protocol === "https:";
    if (!secure && base.protocol !== "http:") {
      throw new BerthTransportError(
        `Unsupported URL scheme "${base.protocol}" in ${endpoint.url}: use http or https`,
      );
    }
    options = {
      method,
      host: base.hostname.replace(/^\[|\]$/g, ""),
      port: base.port === "" ? (secure ? 443 : 80) : Number(base.port),
      path: pathWithQuery,
      headers,
      ...(secure && endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
    };
  } else if (endpoint.socketPath !== undefined) {
    options = { method, socketPath: endpoint.socketPath, path: pathWithQuery, headers };
  } else {
    throw new BerthTransportError("No server given: set a URL or a Unix socket path");
  }
  const where = endpoint.url ?? `unix:${endpoint.socketPath}`;
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", (err) =>
        reject(new BerthTransportError(`Reading the answer from ${where} failed: ${err.message}`)),
      );
    });
    req.setTimeout(endpoint.timeoutMs ?? 60_000, () => {
      req.destroy(
        new BerthTransportError(
          `No answer from ${where} within ${endpoint.timeoutMs ?? 60_000} ms`,
          "ETIMEDOUT",
        ),
      );
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (err instanceof BerthTransportError) return reject(err);
      reject(
        new BerthTransportError(`Cannot reach berthd at ${where}: ${err.message}`, err.code, { cause: err }),
      );
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}
