import type { Position } from "./position.js";

/**
 * Keywords of Starlark, plus Python's reserved words that the newest go.starlark.net scans as
 * tokens of their own (unused by the grammar, so `from = 1` is "got from, want primary
 * expression" and `def f(is)` is "not an identifier"). `assert` stays an identifier upstream.
 */
export const KEYWORDS = new Set([
  "and",
  "break",
  "continue",
  "def",
  "elif",
  "else",
  "for",
  "if",
  "in",
  "lambda",
  "load",
  "not",
  "or",
  "pass",
  "return",
  "while",
  // reserved
  "as",
  "async",
  "await",
  "class",
  "del",
  "except",
  "finally",
  "from",
  "global",
  "import",
  "is",
  "nonlocal",
  "raise",
  "try",
  "with",
  "yield",
]);

/** Punctuation, longest first so the scanner can match greedily. */
export const PUNCTUATION = [
  "//=",
  "<<=",
  ">>=",
  "**",
  "//",
  "<<",
  ">>",
  "==",
  "!=",
  "<=",
  ">=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "|",
  "^",
  "~",
  "<",
  ">",
  "=",
  ".",
  ",",
  ";",
  ":",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
] as const;

export type SpecialToken =
  | "EOF"
  | "NEWLINE"
  | "INDENT"
  | "OUTDENT"
  | "IDENT"
  | "INT"
  | "FLOAT"
  | "STRING"
  | "BYTES";

/** A token kind: a special kind, a keyword, or the punctuation text itself. */
export type TokenKind = SpecialToken | (typeof PUNCTUATION)[number] | string;

export interface Token {
  readonly kind: TokenKind;
  readonly pos: Position;
  /** Position just after the token; go.starlark.net reports "got X" errors here. */
  readonly end: Position;
  /** Source text of the token (for literals and identifiers). */
  readonly raw: string;
  /** Decoded value: identifier/string in byte-string form, int as number|bigint, float as number. */
  readonly value: string | number | bigint | undefined;
}

const SPECIAL_NAMES: Record<SpecialToken, string> = {
  EOF: "end of file",
  NEWLINE: "newline",
  INDENT: "indent",
  OUTDENT: "outdent",
  IDENT: "identifier",
  INT: "int literal",
  FLOAT: "float literal",
  STRING: "string literal",
  BYTES: "bytes literal",
};

/** How go.starlark.net prints a token in "got X, want Y" messages (punctuation quoted). */
export function describeToken(kind: TokenKind): string {
  const special = SPECIAL_NAMES[kind as SpecialToken];
  if (special !== undefined) return special;
  if (KEYWORDS.has(kind)) return kind;
  return `'${kind}'`;
}
