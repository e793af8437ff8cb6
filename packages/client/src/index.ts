/**
 * @berth/client: the typed HTTP client for berthd. This entry has no Node
 * dependency (it runs in browsers): the Fetch API transport, the typed
 * `BerthApi`, and the route table generated from the server. Node's
 * transports (Unix socket, TLS with a pinned CA) are `@berth/client/node`.
 *
 * @module @berth/client
 */

export { automaticRebalanceGroupText, automaticRebalanceSettingsText } from "./automatic-rebalance-text.js";
export {
  type ApiResult,
  BerthClient,
  type BerthClientOptions,
  type BodyOf,
  type CallOptions,
  type OperationId,
  type ParamsOf,
  type QueryOf,
} from "./berth-client.js";
export {
  type Collection,
  type CollectionOperations,
  nameFromUrl,
  type ScopeOptions,
  type WriteOptions,
} from "./collection.js";
export { decodeEnvelope } from "./envelope.js";
export { BerthApiError, BerthTransportError } from "./errors.js";
export { type FetchTransportOptions, fetchTransport } from "./fetch-transport.js";
export {
  fillPath,
  type HttpMethod,
  type PathParamNames,
  type QueryValue,
  type RouteEntry,
  type RouteTable,
  withQuery,
} from "./route-table.js";
export { routes } from "./routes.generated.js";
export type { Transport, TransportRequest, TransportResponse } from "./transport.js";
export { BerthApi, type DryRunOptions, type In, type PlaceOptions } from "./typed-client.js";
