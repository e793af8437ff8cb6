/**
 * The conformance files write expectations as Go string literals holding RE2 regular
 * expressions. These helpers decode the literal and translate the few RE2 forms that
 * JavaScript spells differently.
 */

const GO_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

/** Decodes a Go string literal: "..." with escapes, or `...` raw. Throws on malformed input. */
export function decodeGoStringLiteral(lit: string): string {
  const s = lit.trim();
  if (s.length >= 2 && s.startsWith("`") && s.endsWith("`")) return s.slice(1, -1);
  if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) {
    throw new Error(`not a Go string literal: ${lit}`);
  }
  const body = s.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[++i] ?? "";
    const simple = GO_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
    } else if (e === "x") {
      out += String.fromCharCode(Number.parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      out += String.fromCodePoint(Number.parseInt(body.slice(i + 1, i + 1 + n), 16));
      i += n;
    } else if (e >= "0" && e <= "7") {
      out += String.fromCharCode(Number.parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else {
      throw new Error(`invalid escape \\${e} in Go string literal ${lit}`);
    }
  }
  return out;
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: "A-Za-z",
  digit: "0-9",
  alnum: "A-Za-z0-9",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  lower: "a-z",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
};

/** Translates an RE2 pattern to a JS RegExp (unanchored search, like Go's MatchString). */
export function goRegExp(pattern: string): RegExp {
  let flags = "";
  let p = pattern;
  const leading = /^\(\?([imsU]+)\)/.exec(p);
  if (leading) {
    for (const f of leading[1] ?? "") if (f === "i" || f === "m" || f === "s") flags += f;
    p = p.slice(leading[0].length);
  }
  p = p
    .replace(/\\A/g, "^")
    .replace(/\\z/g, "$(?![\\s\\S])")
    .replace(/\[:(\^?)(\w+):\]/g, (m, neg: string, name: string) => {
      const cls = POSIX_CLASSES[name];
      if (cls === undefined) return m;
      return neg ? `^${cls}` : cls;
    })
    .replace(/\\Q([\s\S]*?)(\\E|$)/g, (_m, lit: string) => lit.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(p, flags);
}
