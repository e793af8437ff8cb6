/**
 * Keeping an engine's model in step with a store's change feed
 * (store/change-feed.ts). The model is the store's state as of the feed
 * cursor, plus this engine's in-flight placements:
 *  - before planning, the engine reads what it has not applied yet
 *    (`beforePlan`); with a store that wakes it (PostgreSQL LISTEN) only
 *    after a wake-up, or when the last read is older than a second, so a
 *    lost notification costs at most that much latency;
 *  - after its own claim commits, it reads again (`fresh`: a read that
 *    starts after the call) and releases the claim's in-flight placements
 *    in the same synchronous step as it applies the claim's entry
 *    (`settleAfterRead`), so the capacity is never counted twice or not at
 *    all;
 *  - concurrent callers share reads: at most one read runs and one waits.
 * Entries are applied in the order given; members and catalog tables named
 * by a read are re-read (current rows) before any entry is applied, so a
 * member created in the read exists before the claims that use it.
 */
import type { EngineRuntime } from "../engine/runtime.js";
import type { ChangeEntry, ChangeFeed, ClaimEffect, FeedWatch } from "../store/change-feed.js";
import type { StoreSnapshot } from "../store/port.js";
import type { ConfigRecord, MemberRecord } from "../store/records.js";

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
  /** Work to do once a read that started after it was registered has been applied. */
  private settles: (() => void)[] = [];
  /** Moves with every applied catalog, config or member change (derived caches key on it). */
  epoch = 0;
  /** Entries applied so far (and re-hydrations): tells whether a read brought anything. */
  applied = 0;

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly feed: ChangeFeed,
    cursor: string,
  ) {
    this.cursor = cursor;
    this.watch = feed.watch?.(() => {
      this.dirty = true;
    });
  }

  /** This engine wrote something: read before the next plan, and treat derived caches as stale. */
  noteOwnWrite(): void {
    this.dirty = true;
    this.epoch += 1;
  }

  /** Before planning: reads when anything may have been committed that is not applied yet. */
  beforePlan(): Promise<void> {
    if (this.running !== null) return this.running;
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

  /** Runs `settle` in the same step as the first read that starts after this call is applied. */
  settleAfterRead(settle: () => void): void {
    this.settles.push(settle);
  }

  /** Before taking a snapshot: the settles whose claims it will include (they committed already). */
  takeSettles(): (() => void)[] {
    const settles = this.settles;
    this.settles = [];
    return settles;
  }

  /** The model was rebuilt from `snapshot` (taken after the `settles`' claims committed). */
  hydrated(snapshot: StoreSnapshot, settles: (() => void)[]): void {
    if (snapshot.feedCursor !== undefined) this.cursor = snapshot.feedCursor;
    this.epoch += 1;
    this.applied += 1;
    for (const settle of settles) settle();
  }

  stop(): void {
    this.watch?.stop();
  }

  private start(): Promise<void> {
    const run = this.read().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async read(): Promise<void> {
    const settles = this.settles;
    this.settles = [];
    this.dirty = false;
    try {
      const read = await this.feed.read(this.cursor);
      this.lastReadMs = Date.now();
      if (read.reset) {
        // Fell behind the kept entries: rebuild from a snapshot (its own cursor).
        const snapshot = await this.runtime.store.snapshot();
        this.runtime.model.hydrate(snapshot);
        this.runtime.providerModel.hydrate(snapshot);
        this.runtime.setConfig(snapshot.config);
        this.hydrated(snapshot, settles);
        return;
      }
      const rows = await this.rowsFor(read.entries);
      this.apply(read.entries, rows);
      this.cursor = read.cursor;
      for (const settle of settles) settle();
    } catch (error) {
      // Nothing applied: the next read starts from the same cursor and settles these then.
      this.dirty = true;
      this.settles.unshift(...settles);
      throw error;
    }
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
   * of members' trees, claim-rules/instance-consumers.ts) goes to the
   * provider model, as a consumer claim's does.
   */
  private applyChildUsage(effect: ClaimEffect): void {
    const model = this.runtime.model;
    let onProviders: ClaimEffect["usage"] | undefined;
    for (const change of effect.usage)
      if (model.member(change[0]) === undefined) (onProviders ??= []).push(change);
    if (onProviders !== undefined)
      this.runtime.providerModel.applyConsumers({ usage: onProviders, instances: [] }, []);
  }

  /** Applies a read, synchronously (no other placement sees it half-applied). */
  private apply(entries: readonly ChangeEntry[], rows: ChangedRows): void {
    const model = this.runtime.model;
    this.applied += entries.length;
    for (const entry of entries) {
      if (entry.kind === "claim") {
        model.applyClaimEffect(entry.effect);
        this.applyChildUsage(entry.effect);
        continue;
      }
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
  members: Map<string, MemberRecord>;
  mirrors: Parameters<EngineRuntime["model"]["replaceCatalog"]> | undefined;
  config: ConfigRecord | undefined;
  catalog: boolean;
}
