/**
 * @berth/client/node: the client with Node's transports. `BerthApi` here
 * takes the Node connection options (a Unix socket by default, or a URL
 * with a bearer token and a pinned CA for TLS); everything else is the
 * core's (`@berth/client`).
 *
 * @module @berth/client/node
 */
import { BerthApi as CoreBerthApi } from "../typed-client.js";
import { type NodeEndpoint, nodeTransport } from "./node-transport.js";
import { resolveClientSocketPath } from "./socket-path.js";

export * from "../index.js";
export { type BerthEvent, type EventStream, type EventsOptions, watchEvents } from "./events.js";
export { type NodeEndpoint, nodeTransport } from "./node-transport.js";
export { defaultSocketPath, resolveClientSocketPath, SYSTEM_SOCKET_PATH } from "./socket-path.js";

/** How `BerthApi` reaches berthd from Node, plus the default project of its calls. */
export interface NodeClientOptions extends NodeEndpoint {
  /** Project used by project-scoped calls unless a call names another. */
  project?: string;
}

/**
 * The typed client over TCP/TLS (`url`, `token`, `ca`) or, by default,
 * berthd's Unix socket (`socketPath`, else the shared default path:
 * `$BERTH_SOCKET`, /run/berth/berth.sock as root, `$XDG_RUNTIME_DIR`, ~/.berth).
 */
export class BerthApi extends CoreBerthApi {
  /** Where this client sends requests (URL or socket path), as resolved. */
  readonly endpoint: NodeEndpoint;

  constructor(options: NodeClientOptions = {}) {
    const { project, ...given } = options;
    const endpoint: NodeEndpoint =
      given.url !== undefined
        ? { ...given, url: given.url.replace(/\/+$/, "") }
        : { ...given, socketPath: given.socketPath ?? resolveClientSocketPath() };
    super({ transport: nodeTransport(endpoint), ...(project !== undefined ? { project } : {}) });
    this.endpoint = endpoint;
  }
}
