import type { SqlRunner } from "./runner.js";

/**
 * The right-hand side of an `IN` over a list bound as ONE JSON text: each
 * statement keeps one fixed text (prepared once, whatever the list's
 * length), and no list has to be cut to stay under a parameter limit. Bind
 * the list with `listParam`. `int` lists compare with integer columns.
 */
export function inList(db: SqlRunner, kind: "text" | "int" = "text"): string {
  if (db.dialect === "sqlite") return "(SELECT value FROM json_each(?))";
  return kind === "int"
    ? "(SELECT jsonb_array_elements_text(CAST(? AS jsonb))::bigint)"
    : "(SELECT jsonb_array_elements_text(CAST(? AS jsonb)))";
}

/** An escaped lone surrogate, the only non-ASCII JSON.stringify escapes (ES2019 well-formed stringify). */
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The bound text of a list (`inList`, SQLite's `json_each` row inserts). A
 * string holding a lone UTF-16 surrogate gets U+FFFD in its place, as when
 * it is bound as its own parameter: SQLite's JSON functions would turn the
 * escape into bytes that are not UTF-8, which its driver cannot read back
 * (it aborts the process). Such strings are rare, so the text is only
 * re-made when one is there.
 */
export function listParam(values: readonly unknown[]): string {
  const text = JSON.stringify(values);
  if (!LONE_SURROGATE_ESCAPE.test(text)) return text;
  return JSON.stringify(values, (_key, value: unknown) =>
    typeof value === "string" ? value.replace(LONE_SURROGATE, "\ufffd") : value,
  );
}
