import { decodeGoStringLiteral, goRegExp } from "./go-regexp.js";

/** An expected error: a `###` annotation on a line. */
export interface Expectation {
  readonly line: number;
  readonly pattern: string;
  readonly regexp: RegExp;
}

/**
 * The per-chunk `option:` directives as written; each suite maps them to dialect options
 * the way its go.starlark.net version did (see suites.ts).
 */
export interface ChunkOptions {
  readonly set: boolean;
  readonly while: boolean;
  readonly topLevelControl: boolean;
  readonly recursion: boolean;
  readonly globalReassign: boolean;
  readonly loadBindsGlobally: boolean;
}

export interface Chunk {
  /** 1-based line of the chunk's first line in the file. */
  readonly firstLine: number;
  /** The chunk padded with newlines so that line numbers refer to the whole file. */
  readonly source: string;
  readonly expectations: Expectation[];
  readonly options: ChunkOptions;
}

/** Splits a chunked test file at "\n---\n", as go.starlark.net's chunkedfile does. */
export function splitChunks(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let line = 1;
  for (const part of text.split("\n---\n")) {
    const lines = part.split("\n");
    const expectations: Expectation[] = [];
    lines.forEach((l, i) => {
      const at = l.indexOf("###");
      if (at < 0) return;
      const pattern = decodeGoStringLiteral(l.slice(at + 3));
      expectations.push({ line: line + i, pattern, regexp: goRegExp(pattern) });
    });
    chunks.push({
      firstLine: line,
      source: "\n".repeat(line - 1) + part,
      expectations,
      options: {
        set: part.includes("option:set"),
        while: part.includes("option:while"),
        topLevelControl: part.includes("option:toplevelcontrol"),
        recursion: part.includes("option:recursion"),
        globalReassign: part.includes("option:globalreassign"),
        loadBindsGlobally: part.includes("option:loadbindsglobally"),
      },
    });
    line += lines.length + 1; // the chunk's lines plus the "---" separator
  }
  return chunks;
}
