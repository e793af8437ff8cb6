/**
 * One ledger for both protocols: a Berth member is a root resource
 * provider, so the instances placed on it (LXD API, ledger rows keyed by
 * the member's name) and the Placement consumers allocated on its root
 * provider (rows keyed by the provider's uuid) consume the same
 * inventories, the member's. Every Store reads a member's rows for either
 * kind of claim through `sharedLedgerRows`, so an instance claim sees the
 * consumers' amounts and a consumer claim sees the instances', and the
 * capacity rule (capacity.ts) judges their sum.
 *
 * The root provider's uuid is derived from the member's name (a name-based
 * UUID, RFC 4122 version 5, in Berth's own namespace): member names never
 * change, every server and every Store computes the same uuid without
 * storing a mapping, and a Placement client finds the member by it.
 */
import { createHash } from "node:crypto";
import type { ProviderRows } from "../claims/rows.js";

/** Berth's namespace for member root providers (a fixed random uuid). */
const MEMBER_NAMESPACE = "5b1e8c2e-6f0a-4c49-9d3e-1f6b2a7c8d90";

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll("-", ""), "hex");
}

/** RFC 4122 version 5: the name-based uuid of `name` in `namespace`. */
export function nameBasedUuid(namespace: string, name: string): string {
  const hash = createHash("sha1").update(uuidBytes(namespace)).update(name, "utf8").digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50; // version 5
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Root uuids computed so far, by member name: a claim asks for those of
 * every member it locks, the provider view for every member, and a SHA-1 per
 * ask was a visible share of a create's CPU. Any provider name can be asked
 * about (`isMemberRoot`), so the map is emptied when it reaches
 * `ROOT_UUIDS_KEPT` names rather than growing without bound.
 */
const rootUuids = new Map<string, string>();
const ROOT_UUIDS_KEPT = 65_536;

/** The uuid of the root provider that is the member `name`. */
export function memberProviderUuid(name: string): string {
  let uuid = rootUuids.get(name);
  if (uuid === undefined) {
    if (rootUuids.size >= ROOT_UUIDS_KEPT) rootUuids.clear();
    uuid = nameBasedUuid(MEMBER_NAMESPACE, name);
    rootUuids.set(name, uuid);
  }
  return uuid;
}

/** True when the provider `uuid` named `name` is the member of that name's root provider. */
export function isMemberRoot(uuid: string, memberName: string): boolean {
  return memberProviderUuid(memberName) === uuid;
}

/**
 * A member's rows for a claim of either kind: its inventories, its
 * instances' ledgers, and its root provider's consumers added to "used"
 * (a Placement allocation is in use, never a reservation).
 */
export function sharedLedgerRows(
  member: ProviderRows,
  consumersUsed: Readonly<Record<string, number>>,
): ProviderRows {
  if (Object.keys(consumersUsed).length === 0) return member;
  const used: Record<string, number> = { ...member.used };
  for (const [resourceClass, amount] of Object.entries(consumersUsed)) {
    const next = (used[resourceClass] ?? 0) + amount;
    if (next === 0) delete used[resourceClass];
    else used[resourceClass] = next;
  }
  return { inventories: member.inventories, used, forthcoming: member.forthcoming };
}

/** Adds the consumers' amounts to a member's "used" ledger of a usage row (for the engine's model). */
export function withConsumersUsed<
  T extends {
    /** Resource class -> what the member's "used" ledger holds. */
    used: Record<string, number>;
  },
>(usage: T, consumersUsed: Readonly<Record<string, number>> | undefined): T {
  if (consumersUsed === undefined || Object.keys(consumersUsed).length === 0) return usage;
  return {
    ...usage,
    used: sharedLedgerRows({ inventories: {}, used: usage.used, forthcoming: {} }, consumersUsed).used,
  };
}

/**
 * Puts each member root's member rows (its inventories and instances, with
 * its consumers already in "used", as a Store's instance-claim reads give
 * them) in place of the root's own row, keeping the row's generation: how
 * every Store reads a member root for a consumer claim or a reshape.
 */
export function withMemberRows<
  T extends {
    /** The root row's generation, kept when the member's rows replace the rest. */
    generation: number;
  },
>(
  rows: Map<string, ProviderRows & T>,
  memberRoots: ReadonlyMap<string, string>,
  members: ReadonlyMap<string, ProviderRows>,
): void {
  for (const [uuid, name] of memberRoots) {
    const member = members.get(name);
    const row = rows.get(uuid);
    if (member !== undefined && row !== undefined) rows.set(uuid, { ...row, ...member });
  }
}

/**
 * A Placement provider that is not a member (a child of a member's tree),
 * for an instance claim: its inventories, and what its consumers hold
 * (instances' rows on it included, rules/ledger/instance-consumers.ts) as "used".
 */
export function placementProviderRows(
  provider: { readonly inventories: ProviderRows["inventories"] },
  consumersUsed: Readonly<Record<string, number>>,
): ProviderRows {
  return { inventories: provider.inventories, used: { ...consumersUsed }, forthcoming: {}, placement: true };
}
