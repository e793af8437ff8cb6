/**
 * Checks the scriptlet's entry point the way Incus validates it: a global
 * `instance_placement` that is a function whose parameter names are exactly
 * `request` and `candidate_members`. Berth also accepts the pre-release LXD
 * form that adds `reason` (seed 001's forum example). Texts follow Incus.
 */
import { ENTRY_POINT } from "./messages.js";

export type EntryPointShape =
  | { kind: "missing" }
  | { kind: "not_function"; typeName: string }
  | { kind: "function"; params: readonly string[] };

export type EntryPointCheck = { ok: true; declaresReason: boolean } | { ok: false; message: string };

const REQUIRED = ["candidate_members", "request"] as const;
const REQUIRED_WITH_REASON = ["candidate_members", "reason", "request"] as const;

export function checkEntryPoint(shape: EntryPointShape): EntryPointCheck {
  switch (shape.kind) {
    case "missing":
      return {
        ok: false,
        message: `the function ${goQuote(ENTRY_POINT)} is required but has not been found in the scriptlet`,
      };
    case "not_function":
      return {
        ok: false,
        message: `${goQuote(ENTRY_POINT)} should define the scriptlet\u2019s required function of the same name (found a value of type ${shape.typeName} instead)`,
      };
    case "function": {
      const sorted = [...shape.params].sort();
      if (sameList(sorted, REQUIRED)) return { ok: true, declaresReason: false };
      if (sameList(sorted, REQUIRED_WITH_REASON)) return { ok: true, declaresReason: true };
      // Incus sorts the names it shows only when the counts match.
      const expected = shape.params.length === REQUIRED_WITH_REASON.length ? REQUIRED_WITH_REASON : REQUIRED;
      const gotten = shape.params.length === expected.length ? sorted : shape.params;
      return {
        ok: false,
        message: `the required function ${goQuote(ENTRY_POINT)} defines arguments ${goQuoteList(gotten)} (expected ${goQuoteList(expected)})`,
      };
    }
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Go's %q for an identifier-like string. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %q for a []string: `["a" "b"]`. */
function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(" ")}]`;
}
