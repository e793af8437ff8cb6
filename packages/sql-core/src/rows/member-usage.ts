import { type MemberUsage, memberProviderUuid, withConsumersUsed } from "@berth/engine";
import { jsonSql } from "../runner/json-sql.js";
import { inList, listParam } from "../runner/lists.js";
import { first, type SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";

/**
 * One ledger (engine `sharedLedgerRows`): what the Placement consumers hold
 * on the root provider of each named member, per class (members without
 * any are absent), read in the reading transaction so the usage the
 * engine's model starts from counts them.
 */
export async function consumersOnMembers(
  db: SqlRunner,
  names: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (names.length === 0) return out;
  const memberOf = new Map(names.map((name) => [memberProviderUuid(name), name]));
  const rows = await db.all(
    `SELECT provider_uuid, resource_class, CAST(sum(amount) AS bigint) AS amount FROM consumer_allocations
     WHERE provider_uuid IN ${inList(db)} GROUP BY provider_uuid, resource_class`,
    [listParam([...memberOf.keys()])],
  );
  for (const row of rows) {
    const amount = Number(row.amount);
    const member = memberOf.get(String(row.provider_uuid));
    if (amount === 0 || member === undefined) continue;
    const entry = out.get(member) ?? {};
    entry[String(row.resource_class)] = amount;
    out.set(member, entry);
  }
  return out;
}

type UsageRows = [string, [string, "used" | "forthcoming", number][]][];

/** Per member: [name, [class, ledger, amount][]], zero amounts left out, in join order. */
async function usageRows(db: SqlRunner, names: readonly string[] | undefined): Promise<UsageRows> {
  const json = jsonSql(db);
  const amounts = json.agg(json.array(["u.resource_class", "u.ledger", "u.amount"]));
  const where = names === undefined ? "" : `WHERE m.name IN ${inList(db)}`;
  const row = await first(
    db,
    `SELECT ${json.agg(json.array(["m.name", json.doc(`(SELECT ${amounts} FROM usage AS u WHERE u.member_id = m.id AND u.amount <> 0)`)]), "m.id")} AS usage
     FROM members AS m ${where}`,
    names === undefined ? [] : [listParam(names)],
  );
  return row === undefined ? [] : jsonValue<UsageRows>(row.usage);
}

/**
 * Authoritative usage ("used" with the root providers' Placement consumers)
 * of every member in join order (start-up), or of the named ones in the
 * order given (unknown names are skipped). `anyConsumers` false (the reading
 * transaction saw no consumer allocation) skips hashing each member's root uuid.
 */
export async function readMemberUsage(
  db: SqlRunner,
  names?: readonly string[],
  anyConsumers = true,
): Promise<MemberUsage[]> {
  if (names !== undefined && names.length === 0) return [];
  const members = await usageRows(db, names);
  const consumers = await consumersOnMembers(db, anyConsumers ? members.map(([member]) => member) : []);
  const byName = new Map(
    members.map(([member, rows]) => {
      const entry: MemberUsage = { member, used: {}, forthcoming: {} };
      for (const [resourceClass, ledger, amount] of rows) entry[ledger][resourceClass] = Number(amount);
      return [member, withConsumersUsed(entry, consumers.get(member))];
    }),
  );
  return (names ?? members.map(([member]) => member)).flatMap((name) => {
    const entry = byName.get(name);
    return entry === undefined ? [] : [entry];
  });
}
