/**
 * The snapshot a Store hands the claim rules: exactly the rows a claim
 * touches, read inside the Store's transaction (SQLite: under BEGIN
 * IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE; memory: between two awaits).
 * `reads.ts` says which rows those are. The rules never write to it, except
 * `foldClaim`, which a group commit uses to check the next claim of a batch
 * against the ones accepted before it.
 */
import type { Inventory } from "@berth/resources";
import type { InstanceRecord } from "../../store/records.js";
import type { ProjectTotals } from "./project-usage.js";

/**
 * One resource provider an allocation row can name: a cluster member today,
 * a child provider (NUMA node, GPU) or a DRBD secondary later. The rules
 * never assume an instance's allocations sit on its location alone.
 */
export interface ProviderRows {
  /** Inventories by resource class. */
  readonly inventories: Readonly<Record<string, Inventory>>;
  /** Consumption per class by instances (ledger "used"), non-zero amounts only. */
  readonly used: Readonly<Record<string, number>>;
  /** Consumption per class by reservations (ledger "forthcoming"), non-zero amounts only. */
  readonly forthcoming: Readonly<Record<string, number>>;
  /**
   * MEMORY_MB of the instances mirrored on this provider (their
   * `secondary`), summed per primary (their location), non-zero sums only;
   * absent: none (mirrors.ts, N+1).
   */
  readonly failover?: Readonly<Record<string, number>>;
  /**
   * True for a Placement provider that is not a member (a child provider
   * of a member's tree): its "used" is what its consumers hold, and
   * instances' rows on it are held as consumers (instance-consumers.ts).
   */
  readonly placement?: true;
}

/**
 * What a Store read, inside its transaction, for `checkClaim` (it fills what `claimReads`,
 * `providersToRead` and `projectTotalsToRead` named).
 */
export interface ClaimRows {
  /** Current versions of the instances the claim removes or replaces, by id (absent: gone). */
  readonly instances: Map<string, InstanceRecord>;
  /** The ids among the claim's new instances that a stored instance already has. */
  readonly takenIds: Set<string>;
  /** Id of the stored instance holding each `nameKey(project, name)` the claim's records use. */
  readonly nameHolders: Map<string, string>;
  /** The projects named by the claim's records that exist. */
  readonly projects: Set<string>;
  /** The providers the claim touches that exist, by name (absent: gone). */
  readonly providers: Map<string, ProviderRows>;
  /** Limit counters before the claim of the projects `projectTotalsToRead` names. */
  readonly projectTotals: Map<string, ProjectTotals>;
}

/** Whether `provider` is a Placement provider of the claim's rows (rows on it are held as consumers). */
export function isPlacementProvider(providers: ReadonlyMap<string, ProviderRows>, provider: string): boolean {
  return providers.get(provider)?.placement === true;
}

/** Key of an instance name in its project (project names cannot contain "/"). */
export function nameKey(project: string, name: string): string {
  return `${project}/${name}`;
}
