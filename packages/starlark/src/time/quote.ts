/** Go's time-package quote() for error messages: "..." with non-ASCII and control bytes as \xNN. */
export function timeQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c < 0x20) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (c === 0x22 || c === 0x5c) out += `\\${s[i]}`;
    else out += s[i];
  }
  return `${out}"`;
}
