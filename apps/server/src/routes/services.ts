import type { Engine } from "@berth/engine";
import type { TokenStore } from "../auth/token-store.js";
import type { EventHub } from "../events/event-hub.js";
import type { BodyBudget } from "../http/body-budget.js";
import type { Operations } from "../operations/operations.js";
import type { Trust } from "../trust/trust.js";

/** What route handlers work with: the engine does the thinking, berthd only translates. */
export interface ServerServices {
  engine: Engine;
  tokens: TokenStore;
  /** berthd's version, shown in GET /1.0. */
  version: string;
  /** Largest request body accepted (413 beyond). */
  bodyLimitBytes: number;
  /** Request-body bytes all requests together may hold while their bodies arrive (503 beyond). */
  bodyBudget: BodyBudget;
  /** LXD operations of this process (async answers, `/1.0/operations`). */
  operations: Operations;
  /** The engine's events and the operations' changes in LXD's event format (`/1.0/events`). */
  events: EventHub;
  /**
   * Applies server config that acts on the daemon itself (`core.https_address`
   * moves the TCP listener); answers the key and why it cannot, if it cannot.
   * Absent in an embedded app without listeners of its own.
   */
  applyServerConfig?: (
    config: Record<string, string>,
  ) => Promise<{ key: string; reason: string } | undefined>;
  /** Whom berthd trusts over HTTPS (certificates, pending trust tokens), in the database. */
  trust: Trust;
}
