/**
 * Incus's expiry expressions (`cluster.rebalance.cooldown`, `snapshots.expiry`):
 * space-separated `<integer><unit>` fields, units S (seconds), M (minutes),
 * H (hours), d (days), w (weeks), m (months), y (years), each unit at most
 * once, e.g. "6H" or "1d 3H". "" is no expiry. Calendar units add as Go's
 * `time.AddDate` does (a month after 31 January is 3 March), in UTC.
 */

const FIELD = /^(\d+)(S|M|H|d|w|m|y)$/;

/** Incus's text for an expression it cannot read (internal/instance/expiry.go). */
export const INVALID_EXPIRY = "Invalid expiry expression";

type Unit = "S" | "M" | "H" | "d" | "w" | "m" | "y";

/** The fields of `expression` by unit, or undefined when it is not an expiry expression. */
export function parseExpiry(expression: string): Readonly<Record<Unit, number>> | undefined {
  const fields: Record<Unit, number> = { S: 0, M: 0, H: 0, d: 0, w: 0, m: 0, y: 0 };
  const trimmed = expression.trim();
  if (trimmed === "") return fields;
  for (const part of trimmed.split(" ")) {
    const match = FIELD.exec(part);
    if (match === null) return undefined;
    const unit = match[2] as Unit;
    // Incus refuses a unit given twice (a second "0" field slips through there too).
    if (fields[unit] > 0) return undefined;
    const value = Number(match[1]);
    if (!Number.isSafeInteger(value)) return undefined;
    fields[unit] = value;
  }
  return fields;
}

/** Why `expression` is not an expiry expression (Incus's text), or undefined when it is one. */
export function checkExpiry(expression: string): string | undefined {
  return parseExpiry(expression) === undefined ? INVALID_EXPIRY : undefined;
}

/** `from` plus `expression`, in milliseconds since the epoch (undefined: not an expiry expression). */
export function expiryAfter(fromMs: number, expression: string): number | undefined {
  const fields = parseExpiry(expression);
  if (fields === undefined) return undefined;
  const date = new Date(fromMs);
  date.setUTCFullYear(
    date.getUTCFullYear() + fields.y,
    date.getUTCMonth() + fields.m,
    date.getUTCDate() + fields.d + fields.w * 7,
  );
  return date.getTime() + ((fields.H * 60 + fields.M) * 60 + fields.S) * 1000;
}
