/**
 * berthd's event stream (`GET /1.0/events`, LXD's websocket) from Node:
 * over the Unix socket or TCP/TLS, with the same endpoint options as the
 * typed client. Each message is one LXD event.
 */
import WebSocket from "ws";
import { BerthTransportError } from "../errors.js";
import type { NodeEndpoint } from "./node-transport.js";

/** LXD `api.Event`. */
export interface BerthEvent {
  /**
   * `lifecycle` (an instance or member changed), `logging` (a log line, scriptlet `log_*` lines
   * included) or `operation`.
   */
  type: "lifecycle" | "logging" | "operation";
  /** When the server emitted it (RFC 3339). */
  timestamp: string;
  /**
   * The event itself: for `lifecycle` its `action`, `source` and `context`; for `logging` its
   * `level`, `message` and `context`.
   */
  metadata: Record<string, unknown>;
  /** The server that emitted it. */
  location: string;
  /** The project the event belongs to. */
  project: string;
}

/** Which events `watchEvents` asks for. */
export interface EventsOptions {
  /** lifecycle, logging, operation (default: all three). */
  types?: readonly string[];
  /** Only this project's events (default: the `default` project). */
  project?: string;
  /** Every project's events (admins). */
  allProjects?: boolean;
}

/** An open event stream. */
export interface EventStream {
  /** Resolves when the stream ends (closed by either side); rejects if it could not open. */
  readonly closed: Promise<void>;
  /** Closes the stream; `closed` then resolves. */
  close(): void;
}

function eventsPath(options: EventsOptions): string {
  const query = new URLSearchParams();
  if (options.types !== undefined && options.types.length > 0) query.set("type", options.types.join(","));
  if (options.allProjects === true) query.set("all-projects", "true");
  else if (options.project !== undefined) query.set("project", options.project);
  const text = query.toString();
  return `/1.0/events${text === "" ? "" : `?${text}`}`;
}

/** Opens the stream and calls `onEvent` with each event until `close()` or the server ends it. */
export function watchEvents(
  endpoint: NodeEndpoint,
  options: EventsOptions,
  onEvent: (event: BerthEvent) => void,
): EventStream {
  const path = eventsPath(options);
  const address =
    endpoint.url !== undefined
      ? `${endpoint.url.replace(/^http/, "ws")}${path}`
      : `ws+unix://${endpoint.socketPath}:${path}`;
  const headers: Record<string, string> = {};
  if (endpoint.token !== undefined) headers.authorization = `Bearer ${endpoint.token}`;
  const socket = new WebSocket(address, {
    headers,
    ...(endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
  });
  const closed = new Promise<void>((resolve, reject) => {
    let opened = false;
    socket.on("open", () => {
      opened = true;
    });
    socket.on("message", (data) => onEvent(JSON.parse(String(data)) as BerthEvent));
    socket.on("unexpected-response", (_request, response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        let message = `HTTP ${response.statusCode}`;
        try {
          message =
            (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error?: string }).error ?? message;
        } catch {
          // Not an LXD envelope: keep the status.
        }
        reject(new BerthTransportError(`Cannot watch events: ${message}`));
      });
    });
    socket.on("error", (error) => {
      if (!opened) reject(new BerthTransportError(`Cannot watch events: ${error.message}`));
    });
    socket.on("close", () => resolve());
  });
  return { closed, close: () => socket.close() };
}
