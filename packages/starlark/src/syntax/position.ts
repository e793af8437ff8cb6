/** A source position: 1-based line and column (column counts UTF-16 code units of the source text). */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** One static (scan, parse or resolve) error, as go.starlark.net reports it. */
export interface SyntaxErrorEntry {
  readonly filename: string;
  readonly line: number;
  readonly col: number;
  readonly msg: string;
}

/**
 * Thrown by `compile` when the source fails to scan, parse or resolve.
 * Scanning and parsing stop at the first error; resolution reports all of its errors.
 */
export class StarlarkSyntaxErrors extends Error {
  readonly kind = "syntax" as const;
  readonly errors: readonly SyntaxErrorEntry[];

  constructor(errors: readonly SyntaxErrorEntry[]) {
    super(errors.map((e) => `${e.filename}:${e.line}:${e.col}: ${e.msg}`).join("\n"));
    this.name = "StarlarkSyntaxErrors";
    this.errors = errors;
  }
}

/** Internal: the first scan/parse error, thrown to unwind the recursive-descent parser. */
export class ParseAbort extends Error {
  constructor(
    readonly pos: Position,
    readonly msg: string,
  ) {
    super(msg);
  }
}
