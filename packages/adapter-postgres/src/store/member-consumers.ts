/**
 * One ledger (engine `sharedLedgerRows`): what the Placement consumers hold
 * on members' root providers, so the usage the engine's model starts from
 * (snapshot, `memberUsage`) counts them.
 */
import { memberProviderUuid } from "@berth/engine";
import type { Tx } from "../connection/pools.js";

/** Consumers' used amounts per class on the root provider of each named member (members without any are absent). */
export async function consumersOnMembers(
  tx: Pick<Tx, "rows">,
  names: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (names.length === 0) return out;
  const memberOf = new Map(names.map((name) => [memberProviderUuid(name), name]));
  const rows = await tx.rows<{ provider_uuid: string; resource_class: string; amount: string | number }>(
    `SELECT provider_uuid, resource_class, sum(amount)::bigint AS amount FROM consumer_allocations
     WHERE provider_uuid = ANY($1::text[]) GROUP BY provider_uuid, resource_class`,
    [[...memberOf.keys()]],
  );
  for (const row of rows) {
    const amount = Number(row.amount);
    const member = memberOf.get(row.provider_uuid);
    if (amount === 0 || member === undefined) continue;
    const entry = out.get(member) ?? {};
    entry[row.resource_class] = amount;
    out.set(member, entry);
  }
  return out;
}
