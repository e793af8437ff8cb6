/**
 * The signal a placement's scriptlet run watches to stop when its client
 * goes away, made the first time it is asked for. On @hono/node-server,
 * `c.req.raw.signal` turns the request into a whole WHATWG Request (headers
 * copied, the body wrapped in a ReadableStream) and an AbortController: about
 * 50 µs of CPU per create, a tenth of berthd's work per create under load,
 * for a signal only a scriptlet run ever reads. This one is an
 * AbortController on Node's response alone, aborted as the adapter aborts
 * its own: the connection closed before the answer was written, or the
 * request stream failed.
 */
import type { Context } from "hono";
import type { ServerEnv } from "./server-env.js";

export function lazyClientSignal(c: Context<ServerEnv>): () => AbortSignal {
  let signal: AbortSignal | undefined;
  return () => {
    if (signal !== undefined) return signal;
    const incoming = c.env?.incoming;
    const outgoing = c.env?.outgoing;
    // Not served by @hono/node-server (app.request() in-process): the Request's own signal.
    if (incoming === undefined || outgoing === undefined) return (signal = c.req.raw.signal);
    const controller = new AbortController();
    signal = controller.signal;
    const gone = () => {
      if (incoming.errored) controller.abort(incoming.errored.toString());
      else if (!outgoing.writableFinished) controller.abort("Client connection prematurely closed.");
    };
    if (outgoing.closed) gone();
    else outgoing.once("close", gone);
    return signal;
  };
}
