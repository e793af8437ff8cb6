/**
 * @berth/server: berthd as a library. `createApp` builds the Hono app around
 * an engine (no listening), `listen` serves it on a Unix socket and/or TCP.
 * The typed client is its own package, `@berth/client`.
 */
export { type AppOptions, createApp, DEFAULT_BODY_LIMIT_BYTES } from "./app/app.js";
export { buildOpenApiDocument } from "./app/openapi.js";
export { SERVER_VERSION } from "./app/version.js";
export { FileTokenStore } from "./auth/file-token-store.js";
export { issueToken, TokenIssueError, type TokenScope } from "./auth/issue-token.js";
export { MemoryTokenStore } from "./auth/memory-token-store.js";
export type { Principal } from "./auth/principal.js";
export { generateTokenSecret, hashTokenSecret, TOKEN_PREFIX } from "./auth/token-secret.js";
export type { TokenRecord, TokenStore } from "./auth/token-store.js";
export { createLogger, type LoggerSettings } from "./daemon/logging.js";
export { type ListenOptions, listen, type RunningServer, type TlsFiles } from "./http/listen.js";
export { type MetricsOptions, ServerMetrics, type UsageSample } from "./metrics/server-metrics.js";
export { allRoutes } from "./routes/index.js";
export type { RouteSpec } from "./routes/route-spec.js";
