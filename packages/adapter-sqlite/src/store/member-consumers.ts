/**
 * One ledger (engine `sharedLedgerRows`): what the Placement consumers hold
 * on members' root providers, read in the reading transaction so an
 * instance claim and the usage the engine's model starts from count them.
 */
import { memberProviderUuid } from "@berth/engine";
import type { RawSql } from "../connection/open-connection.js";
import { IN_JSON, jsonParameter } from "./json-rows.js";

/** Consumers' used amounts per class on the root provider of each named member (members without any are absent). */
export async function consumersOnMembers(
  raw: RawSql,
  names: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (names.length === 0) return out;
  const memberOf = new Map(names.map((name) => [memberProviderUuid(name), name]));
  const rows = await raw.rows(
    `SELECT provider_uuid, resource_class, sum(amount) AS amount FROM consumer_allocations
     WHERE provider_uuid IN ${IN_JSON} GROUP BY provider_uuid, resource_class`,
    [jsonParameter([...memberOf.keys()])],
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
