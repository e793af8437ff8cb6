/**
 * LXD's `?filter=` on lists (API extension `api_filtering`): `FIELD OP VALUE`
 * clauses joined by `and`/`or` (`and` binds tighter), each optionally
 * preceded by `not`; OP is `eq` or `ne`; FIELD is a wire field, dotted into
 * maps (`config.limits.cpu`, `expanded_config.image.os`, `location`); VALUE
 * may be double- or single-quoted. Values compare as strings, as LXD does.
 */
import { badRequest } from "./http-error.js";

interface Clause {
  field: string;
  equal: boolean;
  value: string;
  negated: boolean;
}

/** Disjunction of conjunctions: `a and b or c` = `[[a, b], [c]]`. */
export type LxdFilter = Clause[][];

function tokens(text: string): string[] {
  const out: string[] = [];
  const pattern = /\s*(?:"([^"]*)"|'([^']*)'|(\S+))/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < text.length && (match = pattern.exec(text)) !== null) {
    const word = match[1] ?? match[2] ?? match[3];
    if (word !== undefined) out.push(word);
  }
  return out;
}

function invalid(text: string, why: string): Error {
  return badRequest(`Invalid filter "${text}": ${why}`);
}

export function parseLxdFilter(raw: string | undefined): LxdFilter | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const words = tokens(raw);
  const filter: LxdFilter = [[]];
  let i = 0;
  while (i < words.length) {
    let negated = false;
    if (words[i]?.toLowerCase() === "not") {
      negated = true;
      i += 1;
    }
    const [field, op, value] = [words[i], words[i + 1]?.toLowerCase(), words[i + 2]];
    if (field === undefined || op === undefined || value === undefined)
      throw invalid(raw, "expected FIELD eq|ne VALUE");
    if (op !== "eq" && op !== "ne") throw invalid(raw, `unsupported operator "${op}" (eq and ne are)`);
    filter[filter.length - 1]!.push({ field, equal: op === "eq", value, negated });
    i += 3;
    const joiner = words[i]?.toLowerCase();
    if (joiner === undefined) break;
    if (joiner === "or") filter.push([]);
    else if (joiner !== "and") throw invalid(raw, `expected "and" or "or", got "${words[i]}"`);
    i += 1;
    if (i >= words.length) throw invalid(raw, `nothing after "${joiner}"`);
  }
  return filter;
}

/** A wire field as a string (dotted paths walk into objects; map keys may contain dots). */
function fieldOf(object: unknown, path: string): string | undefined {
  if (object === null || typeof object !== "object") return undefined;
  const record = object as Record<string, unknown>;
  if (path in record) return stringOf(record[path]);
  for (let dot = path.indexOf("."); dot > 0; dot = path.indexOf(".", dot + 1)) {
    const head = path.slice(0, dot);
    if (head in record) return fieldOf(record[head], path.slice(dot + 1));
  }
  return undefined;
}

function stringOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function matchesLxdFilter(filter: LxdFilter, object: unknown): boolean {
  return filter.some((all) =>
    all.every((clause) => {
      const same = fieldOf(object, clause.field) === clause.value;
      return (clause.equal ? same : !same) !== clause.negated;
    }),
  );
}
