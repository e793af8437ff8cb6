/**
 * The change feed: how engines sharing one store (processes on one SQLite
 * file, berthd servers on one PostgreSQL) stay in step. Every committed
 * change a model depends on gets an entry, written in the same transaction
 * as the change: claims of every kind (creates, bulk batches, reservations,
 * commits, moves, evacuations, rebalances, deletions) with what they did to
 * usage and counts, and which member, catalog table or config to re-read
 * otherwise. Heartbeats are the exception: they arrive every few seconds per
 * member and reach other engines through `tick()` (heartbeat-sync.ts).
 *
 * The log is the truth; a wake-up (`watch`) only says "read now". A reader
 * keeps an opaque cursor and reads everything committed after it, in an
 * order consistent with the order conflicting writes committed in (a write
 * that waited for another's locks comes after it), so applying the entries
 * of a read in the order given yields the state the store had.
 */
import type { InstanceRecord, Ledger } from "./records.js";

/**
 * What a claim did to the aggregates an engine's model keeps, in a compact
 * form (`claimEffectOf` in src/rules/claims/claim-effect.ts builds it from the
 * rules' `CheckedClaim`; every Store writes it as given).
 */
export interface ClaimEffect {
  /** Usage changes per (provider, class, ledger). */
  usage: [provider: string, resourceClass: string, ledger: Ledger, amount: number][];
  /**
   * Instances that appeared (count > 0) or went (count < 0), grouped by
   * everything the model counts them by; the limits usage is per instance.
   */
  instances: CountedChange[];
}

/**
 * Instances of one shape appearing or going: what the model counts per member, project, type,
 * ledger and placement group, and what they count against project limits.
 */
export interface CountedChange {
  /** Where they are. */
  member: string;
  /** Their project. */
  project: string;
  /** Container or virtual machine. */
  type: "container" | "virtual-machine";
  /** Reservations (true) or instances. */
  forthcoming: boolean;
  /** Their placement group, or null. */
  placementGroup: string | null;
  /** CPUs each counts against `limits.cpu`. */
  cpu: number;
  /** Bytes each counts against `limits.memory`. */
  memoryBytes: number;
  /** Bytes each counts against `limits.disk`. */
  diskBytes: number;
  /** Instances of exactly this shape added (negative: removed). */
  count: number;
}

/** `count` instances of `instance`'s shape (negative: gone). */
export function countedChangeOf(instance: InstanceRecord, count: number): CountedChange {
  return {
    member: instance.location,
    project: instance.project,
    type: instance.type,
    forthcoming: instance.forthcoming,
    placementGroup: instance.placementGroup,
    cpu: instance.limitsUsage.cpu,
    memoryBytes: instance.limitsUsage.memoryBytes,
    diskBytes: instance.limitsUsage.diskBytes,
    count,
  };
}

/** The catalog tables a change can name (their rows are re-read whole). */
export type CatalogTableName =
  | "groups"
  | "projects"
  | "profiles"
  | "flavors"
  | "images"
  | "placementGroups"
  | "resourceClasses"
  | "providers"
  | "traits";

/**
 * One committed change, as the feed carries it: engines sharing a store apply these to their
 * models before they plan.
 */
export type ChangeEntry =
  /**
   * A claim's effect; `tokens` are the `Claim.token`s of the claims it
   * holds (a group commit writes one entry for several), absent when none
   * had one.
   */
  | {
      /** An instance claim committed. */
      kind: "claim";
      /** What it changed in usage and counts, to apply to the model. */
      effect: ClaimEffect;
      /** The claims' tokens; absent when none had one. */
      tokens?: string[];
    }
  /**
   * A Placement consumer claim: its usage changes (on member root
   * providers keyed by the member's name, so the model adds them to the
   * member's ledger; on other providers by uuid) and the generations it
   * gave the providers it bumped. Consumers are not instances: nothing is counted.
   */
  | {
      /** A Placement consumer claim (or reshape) committed. */
      kind: "consumers";
      /** Its usage changes, keyed as described above. */
      effect: ClaimEffect;
      /** Each provider whose generation moved, with its new generation. */
      bumped: [provider: string, generation: number][];
    }
  /**
   * A member created, deleted, or changed in a field other than its
   * heartbeat/state. `joinOrder` tells a member from an earlier one of the
   * same name (deleted and created again).
   */
  | {
      /** A member record changed. */
      kind: "member";
      /** The member's name. */
      name: string;
      /** Its join order, which tells it from an earlier member of the same name. */
      joinOrder: number;
      /** What happened to it; engines re-read the member unless it was deleted. */
      change: "created" | "updated" | "deleted";
    }
  /** A catalog table changed: engines re-read it whole. */
  | {
      /** A catalog write committed. */
      kind: "catalog";
      /** The table written. */
      table: CatalogTableName;
    }
  /** The server config changed: engines re-read it. */
  | {
      /** A config write committed. */
      kind: "config";
    };

/** One read of the change feed. */
export interface FeedRead {
  /** Changes committed after the cursor read from, in order. */
  entries: ChangeEntry[];
  /** Where the next read starts. */
  cursor: string;
  /**
   * The cursor is older than what the store still keeps (entries are
   * pruned after a while): the reader must re-hydrate from a snapshot.
   */
  reset?: true;
}

/** A wake-up subscription. */
export interface FeedWatch {
  /**
   * True while wake-ups are delivered (PostgreSQL: the LISTEN connection is
   * up). While false the reader must read before every operation.
   */
  live(): boolean;
  /** Ends the subscription. */
  stop(): void;
}

/**
 * A Store's ordered log of committed changes (optional: a store without one serves one engine);
 * every entry is written in the transaction of the change it records.
 */
export interface ChangeFeed {
  /** Everything committed after `cursor` (from a snapshot or an earlier read). */
  read(cursor: string): Promise<FeedRead>;
  /**
   * Optional: calls `wake` after other writers committed (PostgreSQL
   * LISTEN/NOTIFY). Without it (or while not live) readers read before every
   * operation, which must then be cheap when nothing changed.
   */
  watch?(wake: () => void): FeedWatch;
}
