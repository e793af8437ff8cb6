/**
 * json.indent: Go's encoding/json.Indent, which go.starlark.net calls: leading white space is
 * dropped, the value is laid out one element per line, and trailing white space is kept; invalid
 * input fails with the scanner's error ("invalid character 'x' looking for beginning of value").
 */
import { StarEvalError } from "../values/errors.js";
import { allocString, checkStringLength, type Thread } from "../values/thread.js";
import { JsonScanner, Scan } from "./scanner.js";

export function jsonIndent(s: string, prefix: string, indent: string, thread?: Thread): string {
  const scan = new JsonScanner();
  let out = "";
  let needIndent = false;
  let depth = 0;
  const newline = () => {
    out += `\n${prefix}${indent.repeat(depth)}`;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = scan.step(scan, c);
    if (v === Scan.SkipSpace) continue;
    if (v === Scan.Error) break;
    if (needIndent && v !== Scan.EndObject && v !== Scan.EndArray) {
      needIndent = false;
      depth++;
      newline();
    }
    if (v === Scan.Continue) {
      out += s[i];
      continue;
    }
    switch (c) {
      case 0x7b: // {
      case 0x5b: // [
        needIndent = true;
        out += s[i];
        break;
      case 0x2c: // ,
        out += ",";
        newline();
        break;
      case 0x3a: // :
        out += ": ";
        break;
      case 0x7d: // }
      case 0x5d: // ]
        if (needIndent) needIndent = false;
        else {
          depth--;
          newline();
        }
        out += s[i];
        break;
      default:
        out += s[i];
    }
    if (out.length > 1 << 16) checkStringLength(thread, out.length);
  }
  if (scan.eof() === Scan.Error) throw new StarEvalError(scan.err as string);
  allocString(thread, out.length);
  return out;
}
