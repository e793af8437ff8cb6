/**
 * Argument unpacking for the scriptlet builtins, following go.starlark.net's
 * `UnpackArgs` (which LXD/Incus use) so errors read exactly the same:
 *   set_target: missing argument for member_name
 *   set_target: for parameter member_name: got int, want string
 *   get_instances: unexpected keyword argument "foo" (did you mean project?)
 *   set_target: got 2 arguments, want at most 1
 *   get_instances: got multiple values for keyword argument "project"
 */
import { None, repr, EvalError as StarEvalError, type Value } from "@berth/starlark";
import { typeNameOf } from "./values.js";

export type ParamType = "string" | "bool";

export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  /** Optional parameters may be omitted; `None` counts as omitted (go's `name??`). */
  readonly optional: boolean;
}

/** Unpacked values by position; `undefined` when omitted or None. */
export type Unpacked = (string | boolean | undefined)[];

export function unpackBuiltinArgs(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  params: readonly ParamSpec[],
): Unpacked {
  const out: Unpacked = new Array(params.length).fill(undefined);
  const defined: boolean[] = new Array(params.length).fill(false);
  if (args.length > params.length) {
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want at most ${params.length}`);
  }
  for (let i = 0; i < args.length; i++) {
    const param = params[i] as ParamSpec;
    defined[i] = true;
    out[i] = unpackOne(fnName, param, args[i] as Value);
  }
  for (const [name, value] of kwargs) {
    const i = params.findIndex((p) => p.name === name);
    if (i < 0) throw unexpectedKeyword(fnName, name, params);
    if (defined[i]) {
      throw new StarEvalError(`${fnName}: got multiple values for keyword argument ${repr(name)}`);
    }
    defined[i] = true;
    out[i] = unpackOne(fnName, params[i] as ParamSpec, value);
  }
  for (let i = 0; i < params.length; i++) {
    const param = params[i] as ParamSpec;
    // As in go, the first optional parameter ends the required ones.
    if (param.optional) break;
    if (!defined[i]) throw new StarEvalError(`${fnName}: missing argument for ${param.name}`);
  }
  return out;
}

function unpackOne(fnName: string, param: ParamSpec, value: Value): string | boolean | undefined {
  if (param.optional && value === None) return undefined;
  switch (param.type) {
    case "string":
      if (typeof value === "string") return value;
      break;
    case "bool":
      if (typeof value === "boolean") return value;
      break;
  }
  throw new StarEvalError(
    `${fnName}: for parameter ${param.name}: got ${typeNameOf(value)}, want ${param.type}`,
  );
}

function unexpectedKeyword(fnName: string, name: string, params: readonly ParamSpec[]): StarEvalError {
  // go.starlark.net collects the hint candidates with a stride of two over the
  // parameter list (it walks name/pointer pairs by parameter index), so only
  // every other parameter is ever suggested. Kept for identical messages.
  const names: string[] = [];
  for (let i = 0; i < params.length; i += 2) names.push((params[i] as ParamSpec).name);
  const hint = nearestSpelling(name, names);
  const base = `${fnName}: unexpected keyword argument ${repr(name)}`;
  return new StarEvalError(hint === undefined ? base : `${base} (did you mean ${hint}?)`);
}

/**
 * go.starlark.net's spell.Nearest: the candidate closest by edit distance,
 * ignoring case and underscores, allowing up to 50% typos.
 */
export function nearestSpelling(x: string, candidates: readonly string[]): string | undefined {
  const fold = (s: string) => s.replaceAll("_", "").toLowerCase();
  const fx = fold(x);
  let best: string | undefined;
  let bestDistance = Math.floor((fx.length + 1) / 2);
  for (const c of candidates) {
    const d = levenshtein(fx, fold(c), bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

/** Edit distance, giving up (returning max) once it cannot be below max. */
function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) >= max) return max;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= max) return max;
    prev = row;
  }
  return prev[b.length] as number;
}
