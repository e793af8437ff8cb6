/**
 * The claim rules of a member's root provider written through Placement
 * (inventories, traits, aggregates, a reshape). The member is the one home
 * of its inventories and traits (what the LXD API, scriptlets and flavors
 * see); the root's stored row keeps only what Placement has and a member
 * has not: its aggregates, and the generation moves of allocations and
 * aggregates. A Store reads the member (its one ledger: instances,
 * reservations and the root's consumers) and the row, if any, inside one
 * transaction, calls these rules and writes both.
 *
 * Placement's generation of a member's root is the member's generation
 * (moved by a change of its inventories or traits, through either API)
 * plus its row's (absent: 0). Both only grow, so the sum moves with every
 * change of either, and a caller holding the sum it read is current
 * exactly when neither moved.
 */
import type { Inventory } from "@berth/resources";
import type { MemberRootWrite, ReshapeWrite } from "../../store/port.js";
import type { InventoryRecord, ProviderRecord } from "../../store/records.js";
import { consumedOf } from "../claims/capacity.js";
import type { ProviderRows } from "../claims/rows.js";
import {
  type CheckedReshape,
  type ReshapedProvider,
  type ReshapeProviderRows,
  reshapeGenerationFailure,
  reshapeInventoryInUse,
} from "./reshape.js";
import { isMemberRoot, memberProviderUuid } from "./shared-ledger.js";

/** Placement's generation of a member's root: the member's plus its stored row's. */
export function rootGeneration(memberGeneration: number, rowGeneration: number | undefined): number {
  return memberGeneration + (rowGeneration ?? 0);
}

/** Placement's inventories as the member keeps them: set by a client, so explicit (they win over derived ones). */
export function explicitInventories(
  inventories: Readonly<Record<string, Inventory>>,
): Record<string, InventoryRecord> {
  const out: Record<string, InventoryRecord> = {};
  for (const [resourceClass, inventory] of Object.entries(inventories))
    out[resourceClass] = { ...inventory, source: "explicit" };
  return out;
}

/**
 * The stored row a member's root starts with (on its first Placement write
 * that needs one): no inventories or traits of its own (the member's are
 * the only ones) and generation 0, so Placement's generation of the root
 * does not jump.
 */
export function memberRootRow(member: string, now: string): ProviderRecord {
  const uuid = memberProviderUuid(member);
  return newProviderRow({ uuid, name: member, parentUuid: null, rootUuid: uuid }, now);
}

/** A provider's first row: where it sits in its tree, generation 0, nothing on it yet. */
export function newProviderRow(
  place: Pick<ProviderRecord, "uuid" | "name" | "parentUuid" | "rootUuid">,
  now: string,
): ProviderRecord {
  return {
    ...place,
    generation: 0,
    inventories: {},
    traits: [],
    aggregates: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** A member's root as a write of it reads it, in its transaction. */
export interface MemberRootRows {
  /** The member: its inventories, its one ledger (instances, reservations, the root's consumers), its generation. */
  readonly member: ProviderRows & {
    /** The member's generation (moves with its inventories and traits). */
    readonly generation: number;
  };
  /** The root's stored row, if it has one. */
  readonly row:
    | {
        /** The row's generation (moves with the root's aggregates and Placement's other writes). */
        readonly generation: number;
      }
    | undefined;
}

/** What a Store writes for a checked write of a member's root. */
export interface CheckedMemberRootWrite {
  /** The member's next generation when its inventories or traits change; undefined: the member stays. */
  memberGeneration: number | undefined;
  /** The row's generation after the write; undefined: no row and none needed. */
  rowGeneration: number | undefined;
  /** Placement's generation of the root after the write. */
  generation: number;
}

/** The classes `inventories` drops that the member's one ledger still holds (in use), in the member's order. */
export function inventoryInUse(
  member: ProviderRows,
  inventories: Readonly<Record<string, Inventory>>,
): string[] {
  const classes = new Set([...Object.keys(member.used), ...Object.keys(member.forthcoming)]);
  return [...classes].filter((c) => inventories[c] === undefined && consumedOf(member, c) > 0);
}

/**
 * Judges one Placement write of a member's root: the generation the caller
 * read (when given), and for inventories that no class in use goes. An
 * inventory or trait change moves the member's generation once; an
 * aggregates change moves the row's (creating it), but only when the caller
 * gave a generation (Placement before 1.19 does not move it).
 */
export function checkMemberRootWrite(write: MemberRootWrite, rows: MemberRootRows): CheckedMemberRootWrite {
  const uuid = memberProviderUuid(write.member);
  const current = rootGeneration(rows.member.generation, rows.row?.generation);
  if (write.expectedGeneration !== undefined && write.expectedGeneration !== current)
    throw reshapeGenerationFailure(uuid, current, write.expectedGeneration);
  const { change } = write;
  if (change.kind === "aggregates") {
    const rowGeneration = (rows.row?.generation ?? 0) + (write.expectedGeneration === undefined ? 0 : 1);
    return {
      memberGeneration: undefined,
      rowGeneration,
      generation: rootGeneration(rows.member.generation, rowGeneration),
    };
  }
  if (change.kind === "inventories") {
    const dropped = inventoryInUse(rows.member, change.inventories);
    if (dropped.length > 0) throw reshapeInventoryInUse(uuid, dropped);
  }
  const memberGeneration = rows.member.generation + 1;
  return {
    memberGeneration,
    rowGeneration: rows.row?.generation,
    generation: rootGeneration(memberGeneration, rows.row?.generation),
  };
}

/** A member's root named by a reshape, as the Store reads it (with or without its row). */
export interface ReshapeMemberRoot {
  /** The member's name. */
  readonly member: string;
  /** The member's inventories, one ledger and generation. */
  readonly rows: MemberRootRows["member"];
  /** The root's stored row's generation; undefined: the root has no row yet. */
  readonly rowGeneration: number | undefined;
}

/**
 * The member a provider a reshape names is the root of: by its stored
 * row's name, or (a root without a row yet) by the member the engine named
 * in the inventory replacement; the uuid must be that member's root.
 */
export function reshapedMemberOf(
  uuid: string,
  rowName: string | undefined,
  change: ReshapeWrite,
): string | undefined {
  const name = rowName ?? change.inventories.find((i) => i.provider === uuid)?.member;
  return name !== undefined && isMemberRoot(uuid, name) ? name : undefined;
}

/**
 * The member roots among the providers a reshape names (`named`), read as
 * their members: `rowNames` are the stored member roots' names and `stored`
 * the stored rows (their own generations), by uuid; `read` is the Store's
 * read of members' one ledgers and generations inside its transaction.
 */
export async function reshapeMemberRoots(
  change: ReshapeWrite,
  named: readonly string[],
  rowNames: ReadonlyMap<string, string>,
  stored: ReadonlyMap<string, { readonly generation: number }>,
  read: (members: string[]) => Promise<ReadonlyMap<string, MemberRootRows["member"]>>,
): Promise<Map<string, ReshapeMemberRoot>> {
  const memberOf = new Map<string, string>();
  for (const uuid of named) {
    const member = reshapedMemberOf(uuid, rowNames.get(uuid), change);
    if (member !== undefined) memberOf.set(uuid, member);
  }
  const roots = new Map<string, ReshapeMemberRoot>();
  if (memberOf.size === 0) return roots;
  const members = await read([...memberOf.values()]);
  for (const [uuid, member] of memberOf) {
    const rows = members.get(member);
    if (rows !== undefined) roots.set(uuid, { member, rows, rowGeneration: stored.get(uuid)?.generation });
  }
  return roots;
}

/**
 * Puts the member roots a reshape names into its provider rows: the
 * member's inventories and one ledger at Placement's generation of the
 * root, whether or not the root has a stored row yet.
 */
export function withMemberRootRows(
  rows: Map<string, ReshapeProviderRows>,
  roots: ReadonlyMap<string, ReshapeMemberRoot>,
): void {
  for (const [uuid, root] of roots) {
    const { generation, ...ledger } = root.rows;
    rows.set(uuid, { ...ledger, generation: rootGeneration(generation, root.rowGeneration) });
  }
}

/** What a Store writes for a reshaped member root: the member's inventories and generation, the row's. */
export interface MemberRootReshape {
  /** The root provider's UUID (the member's `memberProviderUuid`). */
  uuid: string;
  /** The member's name. */
  member: string;
  /** The member's new inventories (as Placement set them); undefined: unchanged. */
  inventories: Record<string, Inventory> | undefined;
  /** The member's generation the Store read (its write is conditional on it). */
  expectedMemberGeneration: number;
  /** The member's generation after the reshape, as the Store writes it. */
  memberGeneration: number;
  /** The row's generation to write (the rest of Placement's generation moves). */
  rowGeneration: number;
  /** The root had no row: the Store creates it. */
  createRow: boolean;
}

/**
 * Splits a checked reshape's provider writes: member roots become the
 * member's inventories (one move of its generation) and the row's
 * generation (the rest of Placement's moves); other providers are written
 * as the reshape says.
 */
export function memberRootReshapes(
  change: ReshapeWrite,
  checked: CheckedReshape,
  roots: ReadonlyMap<string, ReshapeMemberRoot>,
): {
  /** The member roots among the written providers, as member and row writes. */
  roots: MemberRootReshape[];
  /** The other written providers, as the reshape says. */
  providers: ReshapedProvider[];
} {
  const replaced = new Set(change.inventories.map((i) => i.provider));
  const out: MemberRootReshape[] = [];
  const providers: ReshapedProvider[] = [];
  for (const written of checked.providers) {
    const root = roots.get(written.uuid);
    if (root === undefined) {
      providers.push(written);
      continue;
    }
    const moved = replaced.has(written.uuid);
    const memberGeneration = root.rows.generation + (moved ? 1 : 0);
    out.push({
      uuid: written.uuid,
      member: root.member,
      inventories: moved ? written.inventories : undefined,
      expectedMemberGeneration: root.rows.generation,
      memberGeneration,
      rowGeneration: written.generation - memberGeneration,
      createRow: root.rowGeneration === undefined,
    });
  }
  return { roots: out, providers };
}

/** A Store's writes of a member's root, inside its transaction (each conditional on what it was given). */
export interface MemberRootWriters {
  /** The member's inventories, at `expectedGeneration` (its generation moves once). */
  inventories(
    member: string,
    inventories: Record<string, InventoryRecord>,
    expectedGeneration: number,
  ): Promise<unknown>;
  /** The member's traits, at `expectedGeneration` (its generation moves once). */
  traits(member: string, traits: string[], expectedGeneration: number): Promise<unknown>;
  /** The root's row at `generation`, created when missing; aggregates when given. */
  row(member: string, generation: number, aggregates: readonly string[] | undefined): Promise<unknown>;
}

/** Writes a checked Placement write of a member's root through a Store's writers. */
export async function writeCheckedMemberRoot(
  write: MemberRootWrite,
  memberGeneration: number,
  checked: CheckedMemberRootWrite,
  writers: MemberRootWriters,
): Promise<void> {
  const { change } = write;
  if (change.kind === "inventories")
    await writers.inventories(write.member, explicitInventories(change.inventories), memberGeneration);
  if (change.kind === "traits") await writers.traits(write.member, [...change.traits], memberGeneration);
  if (change.kind === "aggregates")
    await writers.row(write.member, checked.rowGeneration as number, change.aggregates);
}

/** Writes a reshape's member roots through a Store's writers: the member's inventories, the row. */
export async function writeMemberRootReshapes(
  roots: readonly MemberRootReshape[],
  writers: Pick<MemberRootWriters, "inventories" | "row">,
): Promise<void> {
  for (const root of roots) {
    if (root.inventories !== undefined)
      await writers.inventories(
        root.member,
        explicitInventories(root.inventories),
        root.expectedMemberGeneration,
      );
    await writers.row(root.member, root.rowGeneration, undefined);
  }
}
