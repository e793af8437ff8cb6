/**
 * `engine.instances`: instances and reservations, LXD's `/1.0/instances`.
 * Placing ones go through the Placer, edits through InstanceOps; each
 * operation is counted (tracked.ts) and announced as a lifecycle event.
 */

import type { InstancePut, InstancesPost } from "@berth/api-types";
import { CatalogCache } from "../expand/catalog-cache.js";
import { expandInstances, type InstanceExpansion } from "../expand/instance-expansion.js";
import type { EngineEvents } from "../runtime/events.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import type { InstanceFilter } from "../store/port.js";
import type { InstanceRecord } from "../store/records.js";
import type { Catalog } from "./catalog.js";
import type { DryRunOutcome } from "./dry-run.js";
import { InstanceOps, type MoveOutcome } from "./instance-ops.js";
import {
  type BulkOrder,
  type BulkOutcome,
  type CreateOptions,
  type DryRunOptions,
  type PlacementOutcome,
  Placer,
} from "./placer.js";
import { tracked } from "./tracked.js";

/**
 * Instances and reservations (`engine.instances`): list, get, create, dry run, bulk create, edits,
 * renames, moves, commits and deletions.
 */
export class Instances {
  private readonly placer: Placer;
  private readonly ops: InstanceOps;

  constructor(
    private readonly runtime: EngineRuntime,
    maxAttempts: number,
    private readonly events: EngineEvents,
    private readonly catalog: Catalog,
  ) {
    this.placer = new Placer(runtime, maxAttempts);
    this.ops = new InstanceOps(runtime, maxAttempts);
  }

  /** The stored instances the filter admits (reservations included unless filtered out). */
  list(filter: InstanceFilter = {}): Promise<InstanceRecord[]> {
    return this.runtime.store.listInstances(filter);
  }
  /** By name, or by UUID (reservations). */
  get(project: string, ref: string): Promise<InstanceRecord> {
    return this.ops.find(project, ref);
  }
  /** Places and claims one instance (or, with `forthcoming: true`, a reservation). */
  async create(body: InstancesPost, options: CreateOptions = {}): Promise<PlacementOutcome> {
    const outcome = await tracked(
      this.runtime.metrics,
      body.forthcoming === true ? "reservation" : "create",
      () => this.placer.create(body, options),
    );
    // Only while someone listens: the event's closure was made for every create otherwise.
    if (this.events.active) this.events.lifecycle(() => createdEvent(outcome.instance, outcome.decidedBy));
    return outcome;
  }
  /**
   * Decides without claiming: decision, candidates, scriptlet logs and cost.
   * A placement that would fail is a "rejected" decision, not a throw; only
   * a bad request (an invalid `options.scriptletSource`, which dry-runs
   * that scriptlet instead of the configured one) throws.
   */
  dryRun(body: InstancesPost, options: DryRunOptions = {}): Promise<DryRunOutcome> {
    return tracked(
      this.runtime.metrics,
      "dry_run",
      () => this.placer.dryRun(body, options),
      () => 1,
      (outcome) => (outcome.decision.outcome === "rejected" ? outcome.decision.error : undefined),
    );
  }
  /** All-or-nothing bulk create (see Placer.bulk). */
  async bulkCreate(
    bodies: InstancesPost[],
    options: CreateOptions & { order?: BulkOrder } = {},
  ): Promise<BulkOutcome> {
    const outcome = await tracked(
      this.runtime.metrics,
      "bulk",
      () => this.placer.bulk(bodies, options),
      (outcome) => outcome.instances.length,
    );
    if (this.events.active)
      for (const record of outcome.instances) this.events.lifecycle(() => createdEvent(record, "bulk"));
    return outcome;
  }
  /**
   * Edits an instance (`put` replaces its editable fields, `patch` merges them); growth is
   * claimed, so it is refused when the member lacks room.
   */
  async update(
    project: string,
    ref: string,
    changes: InstancePut,
    mode: "put" | "patch" = "patch",
  ): Promise<InstanceRecord> {
    const record = await this.ops.update(project, ref, changes, mode);
    this.events.lifecycle(() => ({
      action: "instance-updated",
      project,
      instance: record.name,
      context: { location: record.location },
    }));
    return record;
  }
  /**
   * Renames an instance (or names a reservation); conflict when the name is taken in its project.
   */
  async rename(project: string, ref: string, newName: string): Promise<InstanceRecord> {
    const record = await this.ops.rename(project, ref, newName);
    this.events.lifecycle(() => ({
      action: "instance-renamed",
      project,
      instance: record.name,
      context: { old_name: ref, location: record.location },
    }));
    return record;
  }
  /**
   * Moves an instance to a member (checked as a named target) or to `@group` (placed by the
   * pipeline, reason `relocation`); two-member instances are refused.
   */
  async move(
    project: string,
    ref: string,
    target: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<MoveOutcome> {
    const outcome = await tracked(this.runtime.metrics, "move", () =>
      this.ops.move(project, ref, target, options),
    );
    this.events.lifecycle(() => ({
      action: "instance-moved",
      project,
      instance: outcome.instance.name,
      context: {
        from: outcome.from,
        to: outcome.instance.location,
        reason: "move",
        decided_by: outcome.decidedBy,
      },
    }));
    return outcome;
  }
  /** Deletes an instance or reservation, releasing what it holds. */
  async delete(project: string, ref: string): Promise<void> {
    await this.ops.delete(project, ref);
    this.events.lifecycle(() => ({ action: "instance-deleted", project, instance: ref, context: {} }));
  }
  /**
   * `expanded_config` / `expanded_devices` of a stored instance: its
   * profiles as they are now, read where its project keeps them (LXD
   * `features.profiles`: the default project's unless the project has its
   * own), the same rule a placement applies.
   */
  async expand(record: InstanceRecord): Promise<InstanceExpansion> {
    return (await this.expandMany([record]))[0]!;
  }
  /** `expand` of many records, reading each project and its profiles once. */
  async expandMany(records: readonly InstanceRecord[]): Promise<InstanceExpansion[]> {
    return expandInstances(records, new CatalogCache(this.runtime), (name) => this.catalog.getProject(name));
  }

  /** Reservation -> real instance; `changes` (patch semantics) may resize it, and only growth is re-checked. */
  async commitReservation(
    project: string,
    ref: string,
    options: { name?: string; changes?: InstancePut } = {},
  ): Promise<InstanceRecord> {
    const record = await tracked(this.runtime.metrics, "commit", () =>
      this.ops.commit(project, ref, options),
    );
    this.events.lifecycle(() => ({
      action: "instance-reservation-committed",
      project,
      instance: record.name,
      context: { location: record.location, uuid: record.id },
    }));
    return record;
  }
}

/** The lifecycle event of a placed instance or reservation. */
function createdEvent(record: InstanceRecord, decidedBy: string) {
  return {
    action: record.forthcoming ? ("instance-reserved" as const) : ("instance-created" as const),
    project: record.project,
    instance: record.name,
    context: { location: record.location, decided_by: decidedBy, uuid: record.id },
  };
}
