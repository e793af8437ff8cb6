/**
 * @berth/server/client: the typed HTTP client for berthd. It pulls in no
 * server code (no Hono), only node's http modules and @berth/api-types types.
 */
export {
  type ApiResult,
  BerthClient,
  type BerthClientOptions,
  type QueryValue,
  type RequestOptions,
} from "./berth-client.js";
export { type Collection, nameFromUrl, type ScopeOptions } from "./collection.js";
export { BerthApiError, BerthTransportError } from "./errors.js";
export { defaultSocketPath, resolveClientSocketPath, SYSTEM_SOCKET_PATH } from "./socket-path.js";
export type { Endpoint } from "./transport.js";
export { BerthApi, type PlaceOptions } from "./typed-client.js";
