/** json.indent: re-indents valid JSON like Go's encoding/json.Indent. */
import { StarEvalError } from "../values/errors.js";
import { checkStringLength, type Thread } from "../values/thread.js";
import { jsonDecode, quoteRune } from "./decode.js";

export function jsonIndent(s: string, prefix: string, indent: string, thread?: Thread): string {
  try {
    jsonDecode(s);
  } catch (e) {
    if (e instanceof StarEvalError) {
      const m = /^at offset (\d+), /.exec(e.message);
      const at = m ? Number(m[1]) : 0;
      const ch = s[at];
      throw new StarEvalError(
        ch === undefined
          ? "unexpected end of JSON input"
          : `invalid character ${quoteRune(ch)} looking for beginning of value`,
      );
    }
    throw e;
  }
  let out = "";
  let depth = 0;
  let needIndent = false; // an opening bracket was just written
  const newline = () => {
    out += `\n${prefix}${indent.repeat(depth)}`;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
    if (needIndent && c !== "]" && c !== "}") {
      needIndent = false;
      depth++;
      newline();
    }
    switch (c) {
      case '"': {
        let j = i + 1;
        while (s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
        out += s.slice(i, j + 1);
        i = j;
        break;
      }
      case "{":
      case "[":
        out += c;
        needIndent = true;
        break;
      case ",":
        out += c;
        newline();
        break;
      case ":":
        out += ": ";
        break;
      case "}":
      case "]":
        if (needIndent) needIndent = false;
        else {
          depth--;
          newline();
        }
        out += c;
        break;
      default:
        out += c;
    }
    if (out.length > 1 << 16) checkStringLength(thread, out.length);
  }
  checkStringLength(thread, out.length);
  return out;
}
