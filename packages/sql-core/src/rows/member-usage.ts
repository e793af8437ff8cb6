import { type MemberUsage, memberProviderUuid, withConsumersUsed } from "@berth/engine";
import { usedSums } from "../consumers/consumer-rows.js";
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
  for (const [uuid, used] of await usedSums(db, [...memberOf.keys()]))
    if (Object.keys(used).length > 0) out.set(memberOf.get(uuid)!, used);
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
