/**
 * Where an editor marks a server-reported scriptlet error. The server
 * answers 1-based line and column (`POST /1.0/scriptlet/check`); an error
 * without a position (a wrong signature) marks the first line.
 */
import type { ScriptletCheckResult } from "@berth/api-types";

export interface Mark {
  /** Character offsets into the source. */
  from: number;
  to: number;
  message: string;
}

export function markOf(source: string, check: ScriptletCheckResult): Mark | null {
  if (check.valid || check.error === null) return null;
  const lines = source.split("\n");
  const line = Math.min(Math.max(check.error.line ?? 1, 1), lines.length);
  let lineStart = 0;
  for (let index = 0; index < line - 1; index++) lineStart += lines[index]!.length + 1;
  const text = lines[line - 1] ?? "";
  const column = Math.min(Math.max(check.error.column ?? 1, 1), text.length + 1);
  const from = lineStart + column - 1;
  // Mark to the end of the word at the position (at least one character, when there is one).
  let to = from;
  while (to < lineStart + text.length && /\w/.test(source[to]!)) to += 1;
  if (to === from && from < lineStart + text.length) to = from + 1;
  return { from, to, message: check.error.message };
}

/** The status line under the editor. */
export function checkSummary(check: ScriptletCheckResult | null, source: string): string {
  if (source.trim() === "") return "Empty: applying it removes the scriptlet (the default policy decides).";
  if (check === null) return "Checking…";
  if (check.valid) return "Compiles: the server accepts it.";
  const error = check.error!;
  return error.line !== null ? `Line ${error.line}, column ${error.column}: ${error.message}` : error.message;
}
