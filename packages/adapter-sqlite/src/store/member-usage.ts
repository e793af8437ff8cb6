import type { MemberUsage } from "@berth/engine";
import type { RawSql } from "../connection/open-connection.js";
import { chunks } from "./chunks.js";
import { inList } from "./sql-lists.js";

const SELECT_USAGE = `
  SELECT m.name AS member, u.resource_class AS resource_class, u.ledger AS ledger, u.amount AS amount
  FROM members AS m LEFT JOIN usage AS u ON u.member_id = m.id AND u.amount != 0`;

/**
 * Authoritative usage of the named members, in the order given (unknown
 * names are skipped). Zero amounts are left out, like an empty ledger.
 * Without names: every member, in join order (start-up hydration).
 */
export async function readMemberUsage(raw: RawSql, names?: string[]): Promise<MemberUsage[]> {
  const byName = new Map<string, MemberUsage>();
  const collect = (rows: Awaited<ReturnType<RawSql["rows"]>>) => {
    for (const row of rows) {
      const member = String(row.member);
      let entry = byName.get(member);
      if (entry === undefined) byName.set(member, (entry = { member, used: {}, forthcoming: {} }));
      if (row.resource_class === null) continue;
      const ledger = row.ledger === "forthcoming" ? entry.forthcoming : entry.used;
      ledger[String(row.resource_class)] = Number(row.amount);
    }
  };
  if (names === undefined) {
    collect(await raw.rows(`${SELECT_USAGE} ORDER BY m.id`));
    return [...byName.values()];
  }
  for (const part of chunks([...new Set(names)], 500)) {
    collect(await raw.rows(`${SELECT_USAGE} WHERE m.name IN (${inList(part.length)})`, part));
  }
  return names.flatMap((name) => {
    const entry = byName.get(name);
    return entry === undefined ? [] : [entry];
  });
}
