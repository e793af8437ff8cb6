import type { HttpBindings } from "@hono/node-server";
import type { Logger } from "pino";
import type { Principal } from "../auth/principal.js";
import type { EventType } from "../events/event-hub.js";

/** Which listener a request arrived on: the Unix socket trusts file permissions, TCP needs a token. */
export type ListenerKind = "unix" | "tcp";

export interface ServerBindings extends HttpBindings {
  listener: ListenerKind;
}

/** Hono environment shared by every middleware and route of berthd. */
export interface ServerEnv {
  Bindings: ServerBindings;
  Variables: {
    requestId: string;
    /** The server's logger; `requestLog(c)` gives the request's own. */
    logger: Logger;
    /** Made on first use by `requestLog(c)`. */
    log: Logger | undefined;
    principal: Principal;
    /** Set when the request failed, for the metrics and the access log. */
    errorKind: string;
    /** `/1.0/events`: the types and project the websocket asked for (undefined project: all). */
    eventFilter: { types: ReadonlySet<EventType>; project: string | undefined };
  };
}
