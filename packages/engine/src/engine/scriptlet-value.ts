/**
 * The check a value of `instances.placement.scriptlet` passes before it is
 * stored or dry-run: compiled, top level run, entry point signature checked
 * by the scriptlet host; failures carry the server config's text
 * `Cannot set "instances.placement.scriptlet" to "VALUE": reason`.
 */
import { checkServerConfigValue, serverConfigErrorMessage } from "@berth/api-types";
import { EngineError } from "../errors.js";
import type { ScriptletHost } from "../scriptlet/port.js";

export const SCRIPTLET_KEY = "instances.placement.scriptlet";

/** Throws EngineError (kind "invalid" for a bad scriptlet); "" (unset) always passes. */
export function checkScriptletValue(host: ScriptletHost, source: string): void {
  if (source === "") return;
  const reason = checkServerConfigValue(SCRIPTLET_KEY, source);
  if (reason !== undefined)
    throw new EngineError("invalid", serverConfigErrorMessage(SCRIPTLET_KEY, source, reason));
  try {
    host.validate(source);
  } catch (error) {
    if (error instanceof EngineError) {
      throw new EngineError(error.kind, serverConfigErrorMessage(SCRIPTLET_KEY, source, error.message));
    }
    throw error;
  }
}
