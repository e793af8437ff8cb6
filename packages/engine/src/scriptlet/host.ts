import { EngineError } from "../errors.js";
import type { ScriptletHost } from "./port.js";

/**
 * Interim host published so ENGINE-CORE can code against the signature while
 * @berth/starlark is being written: it refuses every scriptlet with a clear
 * internal error instead of pretending to run it. Replaced by the real host.
 */
export function createScriptletHost(): ScriptletHost {
  const unavailable = (): never => {
    throw new EngineError(
      "internal",
      "Scriptlet host unavailable: the Starlark interpreter is not wired in yet",
    );
  };
  return { validate: unavailable, run: unavailable };
}
