import { type MemberUsage, withConsumersUsed } from "@berth/engine";
import type { RawSql } from "../connection/open-connection.js";
import { chunks } from "./chunks.js";
import { consumersOnMembers } from "./member-consumers.js";
import { inList } from "./sql-lists.js";

const SELECT_USAGE = `
  SELECT m.name AS member, u.resource_class AS resource_class, u.ledger AS ledger, u.amount AS amount
  FROM members AS m LEFT JOIN usage AS u ON u.member_id = m.id AND u.amount != 0`;

/** Authoritative usage ("used" with the root providers' Placement consumers) of the named members, in the order given (unknown names are skipped). */
export async function readMemberUsage(raw: RawSql, names: string[]): Promise<MemberUsage[]> {
  const byName = new Map<string, MemberUsage>();
  for (const part of chunks([...new Set(names)], 500)) {
    for (const row of await raw.rows(`${SELECT_USAGE} WHERE m.name IN (${inList(part.length)})`, part)) {
      const member = String(row.member);
      let entry = byName.get(member);
      if (entry === undefined) byName.set(member, (entry = { member, used: {}, forthcoming: {} }));
      if (row.resource_class === null) continue;
      const ledger = row.ledger === "forthcoming" ? entry.forthcoming : entry.used;
      ledger[String(row.resource_class)] = Number(row.amount);
    }
  }
  const consumers = await consumersOnMembers(raw, [...byName.keys()]);
  return names.flatMap((name) => {
    const entry = byName.get(name);
    return entry === undefined ? [] : [withConsumersUsed(entry, consumers.get(name))];
  });
}

/**
 * Usage of every member, in join order (start-up hydration). Zero amounts are
 * left out, like an empty ledger. One JSON document, for the reason given on
 * MEMBERS_AS_JSON in member-rows.ts.
 */
export async function readAllMemberUsage(raw: RawSql): Promise<MemberUsage[]> {
  const [row] = await raw.rows(`
    SELECT json_group_array(json_array(m.name, (
      SELECT json_group_array(json_array(u.resource_class, u.ledger, u.amount))
      FROM usage AS u WHERE u.member_id = m.id AND u.amount != 0))) AS usage
    FROM (SELECT id, name FROM members ORDER BY id) AS m`);
  const members = JSON.parse(String(row?.usage ?? "[]")) as [
    string,
    [string, "used" | "forthcoming", number][],
  ][];
  const consumers = await consumersOnMembers(
    raw,
    members.map(([member]) => member),
  );
  return members.map(([member, rows]) => {
    const entry: MemberUsage = { member, used: {}, forthcoming: {} };
    for (const [resourceClass, ledger, amount] of rows) entry[ledger][resourceClass] = amount;
    return withConsumersUsed(entry, consumers.get(member));
  });
}
