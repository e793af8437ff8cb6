/**
 * Keeping an engine's model in step with a store's change feed
 * (store/change-feed.ts). The model is the store's state as of the feed
 * cursor, plus the effects of this engine's own claims committed since
 * (each applied as its claim commits), plus its in-flight placements:
 *  - before planning, the engine reads what it has not applied yet
 *    (`beforePlan`); with a store that wakes it (PostgreSQL LISTEN) only
 *    after a wake-up, or when the last read is older than a second, so a
 *    lost notification costs at most that much latency;
 *  - when its own claim commits, the engine applies the claim's effect
 *    and releases the claim's in-flight placements in one synchronous step
 *    (`applyOwnClaim`), so the capacity is never counted twice or not at
 *    all, and the caller's next read of the model already has it. The
 *    claim carries a token (`newToken`) the store writes into its entry;
 *    a later read skips the entry of a token applied so. Should a read
 *    bring the entry first (its answer overtook the claim's own), the read
 *    applies it and the claim then only releases its placements; a claim
 *    whose outcome the engine never learnt (a connection lost at COMMIT)
 *    has its entry applied by whichever read brings it;
 *  - reads and re-hydrations run one at a time, and concurrent callers
 *    share them: at most one runs and one waits. A re-hydration (a fresh
 *    snapshot; also when the cursor fell behind what the store keeps) runs
 *    while no claim of this engine is in flight, so every own claim is
 *    either in the snapshot or applied to the new model, never both.
 * Entries are applied in the order given; members and catalog tables named
 * by a read are re-read (current rows) before any entry is applied, so a
 * member created in the read exists before the claims that use it.
 */
import { randomUUID } from "node:crypto";
import { isEngineError } from "../base/errors.js";
import type { Logger } from "../base/logger.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { ProviderModel } from "../providers/provider-model.js";
import type { ChangeEntry, ChangeFeed, ClaimEffect, FeedWatch } from "../store/change-feed.js";
import type { Store, StoreSnapshot } from "../store/port.js";
import type { ConfigRecord, MemberRecord } from "../store/records.js";

/**
 * What the feed sync drives (the engine's runtime): the models it keeps in
 * step, the store it reads, and the runtime's own steps for a re-hydration
 * and a new server config.
 */
export interface FeedSyncHost {
  readonly store: Store;
  readonly model: ClusterModel;
  readonly providerModel: ProviderModel;
  readonly logger: Logger;
  withoutClaimsInFlight<T>(rebuild: () => Promise<T>): Promise<T>;
  applySnapshot(snapshot: StoreSnapshot): void;
  setConfig(config: ConfigRecord): void;
}

/** Re-read at least this often even when nothing woke us (a lost notification costs no more). */
const MAX_QUIET_MS = 1_000;
/** Up to this many members are re-read one by one; more, and one listing is cheaper. */
const SINGLE_READS_MAX = 64;
const MIRRORED_TABLES = new Set(["groups", "projects", "placementGroups"]);
/** Tables the Placement provider model (providers/provider-model.ts) is built from. */
const PROVIDER_TABLES = new Set(["providers", "traits", "resourceClasses"]);

export class FeedSync {
  private cursor: string;
  /** Something may have been committed that this engine has not read. */
  private dirty = true;
  private lastReadMs = 0;
  private readonly watch: FeedWatch | undefined;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** The next read is a re-hydration instead. */
  private hydrateWanted = false;
  /** Tokens start with this: the entries of this engine's claims. */
  private readonly origin = `${randomUUID()}:`;
  private tokens = 0;
  /** Tokens of own claims applied as they committed, whose entries no read has brought yet. */
  private readonly ownApplied = new Set<string>();
  /** Tokens of own claims whose entries a read applied before the claim's answer arrived. */
  private readonly readApplied = new Set<string>();
  /** Moves with every applied catalog, config or member change (derived caches key on it). */
  epoch = 0;
  /**
   * Entries of other writers applied so far (and re-hydrations): tells
   * whether a read brought anything this engine did not know.
   */
  applied = 0;

  constructor(
    private readonly runtime: FeedSyncHost,
    private readonly feed: ChangeFeed,
    cursor: string,
  ) {
    this.cursor = cursor;
    this.watch = feed.watch?.(() => {
      this.dirty = true;
    });
  }

  /** A token for the next claim (`Claim.token`): unique per claim attempt. */
  newToken(): string {
    this.tokens += 1;
    return `${this.origin}${this.tokens}`;
  }

  /**
   * An own claim committed: applies its effect (unless a read already
   * brought its entry), then `settle` releases its in-flight placements,
   * in one synchronous step.
   */
  applyOwnClaim(token: string, effect: ClaimEffect, settle: () => void): void {
    if (!this.readApplied.delete(token)) {
      this.applyClaimEffect(effect);
      this.ownApplied.add(token);
    }
    settle();
  }

  /**
   * Has `store` tell this sync of every write it commits (Store.onCommittedWrite),
   * so derived caches (expanded bodies, profiles) are dropped at once and the
   * feed is read before the next plan, even on a store whose feed does not
   * wake its own writer. Answers the function that stops it.
   */
  followOwnWrites(store: Store): () => void {
    if (store.onCommittedWrite === undefined)
      throw new TypeError("A Store with a change feed must tell of its committed writes (onCommittedWrite)");
    return store.onCommittedWrite((entries) => this.ownWriteCommitted(entries));
  }

  /**
   * A write of this engine's store committed. A claim's entries (its effect
   * and the member states it set) are in the model already, applied as the
   * claim committed (`applyOwnClaim`); anything else is read before the next
   * plan, and derived caches treat it as stale at once.
   */
  private ownWriteCommitted(entries: readonly ChangeEntry[]): void {
    if (entries.some((entry) => entry.kind === "claim")) return;
    this.dirty = true;
    this.epoch += 1;
  }

  /**
   * Before planning: reads when anything may have been committed that is
   * not applied yet. A read the store cannot answer (`unavailable`: the
   * database is down) leaves the model as last read, and the next call
   * reads again: what is answered from the model keeps answering through an
   * outage, and nothing is written on a stale model, since every claim is
   * checked against the store's rows as it commits (and fails meanwhile).
   */
  beforePlan(): Promise<void> {
    const read = this.running ?? this.readIfDue();
    return read.catch((error: unknown) => {
      if (!isEngineError(error, "unavailable")) throw error;
    });
  }

  private readIfDue(): Promise<void> {
    const quiet = this.watch?.live() === true && Date.now() - this.lastReadMs < MAX_QUIET_MS;
    if (!this.dirty && quiet) return Promise.resolve();
    return this.fresh();
  }

  /** A read that starts after this call (shared with other callers that need the same). */
  fresh(): Promise<void> {
    if (this.running === null) return this.start();
    if (this.next === null) {
      this.next = this.running
        .catch(() => undefined)
        .then(() => {
          this.next = null;
          return this.start();
        });
    }
    return this.next;
  }

  /** Rebuilds the model from a fresh snapshot, in turn with the reads (see the top of this file). */
  rehydrate(): Promise<void> {
    this.hydrateWanted = true;
    return this.fresh();
  }

  stop(): void {
    this.watch?.stop();
  }

  private start(): Promise<void> {
    const done = () => {
      if (this.running === run) this.running = null;
    };
    // One `then` with both handlers, not `finally` (which chains a promise of its own): a read
    // runs before every in-process plan, so this is per create.
    const run: Promise<void> = this.read().then(done, (error: unknown) => {
      done();
      throw error;
    });
    this.running = run;
    return run;
  }

  private async read(): Promise<void> {
    this.dirty = false;
    try {
      if (this.hydrateWanted) {
        this.hydrateWanted = false;
        await this.hydrate();
        return;
      }
      const read = await this.feed.read(this.cursor);
      this.lastReadMs = Date.now();
      // Fell behind the kept entries: rebuild from a snapshot (its own cursor).
      if (read.reset) return await this.hydrate();
      // Nothing new (the usual read before an in-process plan): no rows to fetch, nothing to apply.
      if (read.entries.length === 0) {
        this.cursor = read.cursor;
        return;
      }
      // Claim entries carry everything they change (the usual read brings this engine's last claim).
      const rows = read.entries.every(carriesItsChange) ? NO_ROWS : await this.rowsFor(read.entries);
      this.apply(read.entries, rows);
      this.cursor = read.cursor;
    } catch (error) {
      // Nothing applied: the next read starts from the same cursor.
      this.dirty = true;
      throw error;
    }
  }

  /** The model from a fresh snapshot, taken and applied while no own claim is in flight. */
  private hydrate(): Promise<void> {
    const runtime = this.runtime;
    return runtime.withoutClaimsInFlight(async () => {
      const snapshot = await runtime.store.snapshot();
      runtime.applySnapshot(snapshot);
      if (snapshot.feedCursor !== undefined) this.cursor = snapshot.feedCursor;
      // Every own claim is in the snapshot: entries read from here on are all to be applied.
      this.ownApplied.clear();
      this.readApplied.clear();
      this.lastReadMs = Date.now();
      this.epoch += 1;
      this.applied += 1;
    });
  }

  /** The current rows of everything the entries name that is not in the entries themselves. */
  private async rowsFor(entries: readonly ChangeEntry[]): Promise<ChangedRows> {
    const store = this.runtime.store;
    const names = new Set<string>();
    let catalog = false;
    let mirrored = false;
    let config = false;
    const model = this.runtime.model;
    for (const entry of entries) {
      // A member this model already has (its own write, or in its snapshot) needs no re-read to join,
      // and a deletion none at all.
      if (entry.kind === "member") {
        const known = model.member(entry.name)?.record.joinOrder === entry.joinOrder;
        if (entry.change === "created" ? !known : entry.change === "updated") names.add(entry.name);
      } else if (entry.kind === "catalog") {
        catalog = true;
        mirrored ||= MIRRORED_TABLES.has(entry.table);
      } else if (entry.kind === "config") config = true;
    }
    const members = async (): Promise<Map<string, MemberRecord>> => {
      if (names.size === 0) return new Map();
      const records =
        names.size > SINGLE_READS_MAX
          ? (await store.listMembers()).filter((record) => names.has(record.name))
          : (await Promise.all([...names].map((name) => store.getMember(name)))).filter(
              (record): record is MemberRecord => record !== undefined,
            );
      return new Map(records.map((record) => [record.name, record]));
    };
    const [memberRows, mirrors, configRow] = await Promise.all([
      members(),
      mirrored
        ? Promise.all([store.groups.list(), store.projects.list(), store.placementGroups.list()])
        : Promise.resolve(undefined),
      config ? store.getConfig() : Promise.resolve(undefined),
    ]);
    return { members: memberRows, mirrors, config: configRow, catalog };
  }

  /**
   * An instance claim's usage on providers that are no members (children
   * of members' trees, rules/ledger/instance-consumers.ts) goes to the
   * provider model, as a consumer claim's does. The claim moved those
   * providers' generations too (instance-consumers.ts), which the entry does
   * not carry: the model reads their rows afresh.
   */
  private applyChildUsage(effect: ClaimEffect): void {
    const model = this.runtime.model;
    let onProviders: ClaimEffect["usage"] | undefined;
    for (const change of effect.usage)
      if (model.member(change[0]) === undefined) (onProviders ??= []).push(change);
    if (onProviders === undefined) return;
    this.runtime.providerModel.applyConsumers({ usage: onProviders, instances: [] }, []);
    this.runtime.providerModel.forget();
  }

  /** A claim's usage and counts, on members and on the providers of their trees. */
  private applyClaimEffect(effect: ClaimEffect): void {
    this.runtime.model.applyClaimEffect(effect);
    this.applyChildUsage(effect);
  }

  /**
   * Whether a read applies a claim entry: not when every claim in it is an
   * own claim applied as it committed. The claims of one entry commit
   * together and their answers are handled in one synchronous run, so its
   * own tokens are either all applied or none are.
   */
  private appliesClaimEntry(tokens: readonly string[] | undefined): boolean {
    if (tokens === undefined || tokens.length === 0) return true;
    const own = tokens.filter((token) => this.ownApplied.delete(token)).length;
    if (own === tokens.length) return false;
    if (own > 0) {
      // Part of it is in the model already, and an entry is applied whole: rebuild the model next.
      this.runtime.logger.log("warn", "change feed: a claim entry was partly applied already; re-hydrating", {
        claims: tokens.length,
        applied: own,
      });
      this.hydrateWanted = true;
      this.dirty = true;
    }
    for (const token of tokens) if (token.startsWith(this.origin)) this.readApplied.add(token);
    return true;
  }

  /** Applies a read, synchronously (no other placement sees it half-applied). */
  private apply(entries: readonly ChangeEntry[], rows: ChangedRows): void {
    const model = this.runtime.model;
    for (const entry of entries) {
      if (entry.kind === "claim") {
        if (!this.appliesClaimEntry(entry.tokens)) continue;
        this.applied += 1;
        this.applyClaimEffect(entry.effect);
        continue;
      }
      this.applied += 1;
      if (entry.kind === "consumers") {
        model.applyClaimEffect(entry.effect);
        this.runtime.providerModel.applyConsumers(entry.effect, entry.bumped);
        continue;
      }
      if (entry.kind === "catalog" && PROVIDER_TABLES.has(entry.table)) this.runtime.providerModel.forget();
      if (entry.kind !== "member") continue;
      const known = model.member(entry.name);
      const current = rows.members.get(entry.name);
      const isThisMember = (joinOrder: number | undefined) => joinOrder === entry.joinOrder;
      switch (entry.change) {
        case "created":
          if (isThisMember(known?.record.joinOrder)) break;
          if (known !== undefined) model.removeMember(entry.name);
          // Gone again since (or joined anew): later entries say so.
          if (isThisMember(current?.joinOrder)) model.joinMember(current!);
          break;
        case "updated":
          if (isThisMember(known?.record.joinOrder) && isThisMember(current?.joinOrder))
            model.upsertMember(current!);
          break;
        case "deleted":
          if (isThisMember(known?.record.joinOrder)) model.removeMember(entry.name);
          break;
      }
    }
    if (rows.mirrors !== undefined) model.replaceCatalog(...rows.mirrors);
    if (rows.config !== undefined) this.runtime.setConfig(rows.config);
    if (rows.catalog || rows.config !== undefined || rows.members.size > 0) this.epoch += 1;
  }
}

interface ChangedRows {
  members: ReadonlyMap<string, MemberRecord>;
  mirrors: Parameters<ClusterModel["replaceCatalog"]> | undefined;
  config: ConfigRecord | undefined;
  catalog: boolean;
}

/** What `rowsFor` answers for entries that name no row to re-read. */
const NO_ROWS: ChangedRows = { members: new Map(), mirrors: undefined, config: undefined, catalog: false };

/** Claim and consumer-claim entries carry their whole effect: no row to re-read for them. */
const carriesItsChange = (entry: ChangeEntry) => entry.kind === "claim" || entry.kind === "consumers";
