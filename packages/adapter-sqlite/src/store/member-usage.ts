import type { MemberUsage } from "@berth/engine";
import { asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../connection/open-connection.js";
import { members, usage } from "../schema/index.js";
import { chunks } from "./chunks.js";

/**
 * Authoritative usage of the named members, in the order given (unknown
 * names are skipped). Zero amounts are left out, like an empty ledger.
 * Without names: every member, in join order (start-up hydration).
 */
export async function readMemberUsage(db: Database, names?: string[]): Promise<MemberUsage[]> {
  const rows: {
    member: string;
    resourceClass: string | null;
    ledger: "used" | "forthcoming" | null;
    amount: number | null;
  }[] = [];
  const query = () =>
    db
      .select({
        member: members.name,
        resourceClass: usage.resourceClass,
        ledger: usage.ledger,
        amount: usage.amount,
      })
      .from(members)
      .leftJoin(usage, eq(usage.memberId, members.id));
  if (names === undefined) {
    rows.push(...(await query().orderBy(asc(members.id))));
  } else {
    for (const part of chunks([...new Set(names)], 900)) {
      rows.push(...(await query().where(inArray(members.name, part))));
    }
  }
  const byName = new Map<string, MemberUsage>();
  for (const row of rows) {
    let entry = byName.get(row.member);
    if (entry === undefined)
      byName.set(row.member, (entry = { member: row.member, used: {}, forthcoming: {} }));
    if (row.resourceClass === null || row.ledger === null || row.amount === null || row.amount === 0)
      continue;
    entry[row.ledger][row.resourceClass] = row.amount;
  }
  if (names === undefined) return [...byName.values()];
  return names.flatMap((name) => {
    const entry = byName.get(name);
    return entry === undefined ? [] : [entry];
  });
}
