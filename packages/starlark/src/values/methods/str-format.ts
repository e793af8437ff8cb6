/** str.format with go.starlark.net's subset of Python's format syntax and its error texts. */
import { StarEvalError } from "../errors.js";
import { repr, str } from "../repr.js";
import { flatten } from "../strings.js";
import { checkStringLength, type Thread } from "../thread.js";
import type { Value } from "../value.js";

export function formatString(
  thread: Thread,
  format: string,
  args: Value[],
  kwargs: [string, Value][],
): string {
  let out = "";
  let auto = 0;
  let mode: "none" | "auto" | "manual" = "none";
  let i = 0;
  const n = format.length;
  while (i < n) {
    const open = format.indexOf("{", i);
    const close = format.indexOf("}", i);
    if (close >= 0 && (open < 0 || close < open)) {
      // literal '}' must be doubled
      if (format[close + 1] !== "}") throw new StarEvalError("single '}' in format");
      out += format.slice(i, close + 1);
      i = close + 2;
      continue;
    }
    if (open < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, open);
    if (format[open + 1] === "{") {
      out += "{";
      i = open + 2;
      continue;
    }
    const end = format.indexOf("}", open + 1);
    if (end < 0) throw new StarEvalError("unmatched '{' in format");
    const field = format.slice(open + 1, end);
    if (field.includes("{")) throw new StarEvalError("nested replacement fields not supported");
    i = end + 1;

    let name = field;
    let conv = "s";
    const colon = name.indexOf(":");
    if (colon >= 0) {
      const spec = name.slice(colon + 1);
      name = name.slice(0, colon);
      if (spec !== "")
        throw new StarEvalError(`format spec features not supported in replacement fields: ${spec}`);
    }
    const bang = name.indexOf("!");
    if (bang >= 0) {
      conv = name.slice(bang + 1);
      name = name.slice(0, bang);
      if (conv !== "r" && conv !== "s") throw new StarEvalError(`unknown conversion "${conv}"`);
    }

    let arg: Value;
    if (name === "") {
      if (mode === "manual") {
        throw new StarEvalError("cannot switch from manual field specification to automatic field numbering");
      }
      mode = "auto";
      if (auto >= args.length) throw new StarEvalError("tuple index out of range");
      arg = args[auto++] as Value;
    } else if (/^[0-9]+$/.test(name)) {
      if (mode === "auto") {
        throw new StarEvalError("cannot switch from automatic field numbering to manual field specification");
      }
      mode = "manual";
      const idx = Number.parseInt(name, 10);
      if (idx >= args.length) throw new StarEvalError("tuple index out of range");
      arg = args[idx] as Value;
    } else {
      if (name.includes(".")) {
        throw new StarEvalError("attribute syntax x.y is not supported in replacement fields");
      }
      if (name.includes("[")) {
        throw new StarEvalError("element syntax a[i] is not supported in replacement fields");
      }
      const kw = kwargs.find(([k]) => k === name);
      if (kw === undefined) throw new StarEvalError(`keyword ${name} not found`);
      arg = kw[1];
    }
    out += conv === "r" ? repr(arg, thread) : str(arg, thread);
    if (out.length > 4096) checkStringLength(thread, out.length);
  }
  checkStringLength(thread, out.length);
  return flatten(out);
}
