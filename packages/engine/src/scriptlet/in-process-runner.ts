/**
 * Scriptlets run on the caller's thread: the synchronous host behind the
 * ScriptletRunner port, its runs answered synchronously (no promise per
 * placement; the port's `validate` and `close` stay asynchronous). For embedders that want no threads
 * and for tests; a run blocks the event loop for its duration (up to
 * `timeout_ms`), which is why berthd uses the worker pool instead
 * (workers/pool.ts).
 */
import type { ScriptletHost, ScriptletRunner } from "./port.js";

/**
 * The default `ScriptletRunner`: `host` on the caller's thread (see the file's comment for the
 * cost).
 */
export function inProcessRunner(host: ScriptletHost): ScriptletRunner {
  return {
    validate: async (source, limits) => host.validate(source, limits),
    run: (version, source, call, logger) => host.run(version, source, call, logger),
    close: async () => {},
  };
}
