/**
 * The check a value of `instances.placement.scriptlet` passes before it is
 * stored or dry-run: compiled, top level run, entry point signature checked
 * by the scriptlet host; failures carry the server config's text
 * `Cannot set "instances.placement.scriptlet" to "VALUE": reason`.
 */
import { checkServerConfigValue, serverConfigErrorMessage } from "@berth/api-types";
import { EngineError } from "../base/errors.js";
import type { ScriptletRunner } from "../scriptlet/port.js";

export const SCRIPTLET_KEY = "instances.placement.scriptlet";

/**
 * Why a scriptlet would be refused: the reason as a config set words it
 * after `Cannot set ... :` (go.starlark.net's `instance_placement:LINE:COL:
 * message` for compile and top-level errors), and where, when the error
 * has a position (1-based line and column).
 */
export interface ScriptletProblem {
  /** The reason, as the refusal words it after `Cannot set ... :`. */
  message: string;
  /** The 1-based line of the error in the scriptlet; null when it has no position. */
  line: number | null;
  /** The 1-based column of the error; null when it has no position. */
  column: number | null;
}

/** The problem that refuses `source`, or undefined when it would be accepted. */
export async function scriptletProblem(
  host: ScriptletRunner,
  source: string,
): Promise<ScriptletProblem | undefined> {
  if (source === "") return undefined;
  const reason = checkServerConfigValue(SCRIPTLET_KEY, source);
  if (reason !== undefined) return { message: reason, line: null, column: null };
  try {
    await host.validate(source);
    return undefined;
  } catch (error) {
    if (!(error instanceof EngineError) || error.kind !== "invalid") throw error;
    const at = error.details as { line?: number; column?: number } | undefined;
    return { message: error.message, line: at?.line ?? null, column: at?.column ?? null };
  }
}

/** Throws EngineError (kind "invalid" for a bad scriptlet); "" (unset) always passes. */
export async function checkScriptletValue(host: ScriptletRunner, source: string): Promise<void> {
  const problem = await scriptletProblem(host, source);
  if (problem === undefined) return;
  throw new EngineError(
    "invalid",
    serverConfigErrorMessage(SCRIPTLET_KEY, source, problem.message),
    problem.line === null ? undefined : { line: problem.line, column: problem.column },
  );
}
