import { hostname } from "node:os";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { Logger } from "pino";
import type { TokenStore } from "../auth/token-store.js";
import { registerConsole } from "../console/console-routes.js";
import { EventHub } from "../events/event-hub.js";
import { BodyBudget, DEFAULT_BODY_MEMORY_BYTES } from "../http/body-budget.js";
import { declaredBodyLimit } from "../http/request-body.js";
import { requestId } from "../http/request-id.js";
import type { ServerEnv } from "../http/server-env.js";
import { enableWebsockets } from "../http/websockets.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";
import { accessLog } from "../middleware/access-log.js";
import { authenticate } from "../middleware/authenticate.js";
import { handleError, methodNotAllowedHandler, notFoundHandler } from "../middleware/error-handler.js";
import { DEFAULT_MAX_IN_FLIGHT, shedOverload } from "../middleware/shed-overload.js";
import { Operations } from "../operations/operations.js";
import { PLACEMENT_PREFIX, placementHandler } from "../placement/placement-app.js";
import { registerCertificatesRoutes } from "../routes/certificates.js";
import { registerEventsRoute } from "../routes/events.js";
import { allRoutes } from "../routes/index.js";
import { registerRawRoutes } from "../routes/raw-routes.js";
import { registerRoute } from "../routes/register.js";
import type { ServerServices } from "../routes/services.js";
import { MemoryTrustStore } from "../trust/memory-trust-store.js";
import { Trust } from "../trust/trust.js";
import { buildOpenApiDocument } from "./openapi.js";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  engine: ServerServices["engine"];
  tokens: TokenStore;
  logger: Logger;
  metrics: ServerMetrics;
  /** Largest accepted request body; bigger ones get 413 before being read in full. */
  bodyLimitBytes?: number;
  /** Request-body bytes all requests together may hold while receiving (default 64 MiB). */
  bodyMemoryBytes?: number;
  /** Requests in progress at once before more get 503 with Retry-After (middleware/shed-overload.ts). */
  maxInFlight?: number;
  version?: string;
  /**
   * Placement's noauth2 convention on `/placement` (`x-auth-token: admin` is
   * an admin). The daemon allows it only when every listener is loopback.
   */
  placementNoauth?: boolean;
  /** How long a finished LXD operation stays readable (default 60 s). */
  operationRetentionMs?: number;
  /** The web console's built assets, served at /ui/; undefined: /ui/ says the console is not built. */
  consoleDir?: string;
  /**
   * Trusted client certificates and trust tokens (HTTPS the LXD way), in the
   * database's trust store; default: an empty one in memory, without HTTPS.
   */
  trust?: Trust;
  /** See `ServerServices.applyServerConfig` (berthd: `core.https_address`). */
  applyServerConfig?: ServerServices["applyServerConfig"];
}

/**
 * Builds the berthd Hono application (no listening: see `http/listen.ts`).
 * Middleware order matters: request id first so every log line has it,
 * then the access log (which must see the final status), the Placement
 * API (its own errors, auth and 405s), the 405 answer
 * (it turns a 404 for a known path into 405), the web console's static
 * files (before auth: the page loads before its user signs in), auth,
 * body limit.
 */
export function createApp(options: AppOptions): Hono<ServerEnv> {
  const maxSize = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const location = hostname();
  const operations = new Operations(location, options.operationRetentionMs);
  const trust = options.trust ?? new Trust({ serverFingerprint: "", store: new MemoryTrustStore() });
  const services: ServerServices = {
    engine: options.engine,
    tokens: options.tokens,
    version: options.version ?? "0.1.0",
    bodyLimitBytes: maxSize,
    bodyBudget: new BodyBudget(options.bodyMemoryBytes ?? DEFAULT_BODY_MEMORY_BYTES),
    operations,
    events: new EventHub(options.engine.events, operations, location),
    trust,
    ...(options.applyServerConfig !== undefined ? { applyServerConfig: options.applyServerConfig } : {}),
  };
  const app = new Hono<ServerEnv>();
  const upgradeWebSocket = enableWebsockets(app);
  // A sane X-Request-Id from the client (word characters, "-", "=", up to 128) is kept, so callers
  // can correlate their logs with ours; otherwise a UUID. Echoed in the response.
  app.use(requestId(128));
  app.use(accessLog(options.logger, options.metrics));
  // Before everything that queues (Placement too): the excess is refused, not held.
  app.use(shedOverload(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT));
  // The OpenStack Placement API answers in its own format, so it is handled before the LXD middleware.
  const placement = placementHandler({
    engine: options.engine,
    tokens: options.tokens,
    noauth: options.placementNoauth ?? false,
    bodyLimitBytes: maxSize,
    bodyBudget: services.bodyBudget,
  });
  app.all(PLACEMENT_PREFIX, placement);
  app.all(`${PLACEMENT_PREFIX}/*`, placement);
  app.use(methodNotAllowed({ app, onMethodNotAllowed: methodNotAllowedHandler }));
  registerConsole(app, options.consoleDir);
  app.use(authenticate(options.tokens, trust.store));
  app.use(declaredBodyLimit(maxSize));
  registerEventsRoute(app, services, upgradeWebSocket);
  registerCertificatesRoutes(app, services, trust);
  for (const spec of allRoutes) registerRoute(app, spec, services);
  registerRawRoutes(app, options.metrics, () => buildOpenApiDocument(allRoutes, services.version));
  app.notFound(notFoundHandler);
  app.onError(handleError);
  return app;
}
