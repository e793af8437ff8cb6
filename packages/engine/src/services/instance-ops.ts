/**
 * Changing existing instances and reservations: edit (resources re-claimed),
 * rename, delete, commit a reservation, move (`?target=member|@group`,
 * reason `relocation`). Every change is one claim with the instance's
 * revision, so concurrent edits surface as conflicts.
 */

import type { InstancePut, InstancesPost } from "@berth/api-types";
import { conflict, invalid, notFound } from "../base/errors.js";
import { claimWithRetries } from "../claim/claim.js";
import { EditsPlan } from "../claim/edits.js";
import { PlacementsPlan } from "../claim/placements.js";
import type { DecidedBy } from "../decide/decide.js";
import { checkNamedMember } from "../decide/named-member.js";
import { scriptletSetup } from "../decide/scriptlet-setup.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import { type ExpandedRequest, expandRequest } from "../expand/expand.js";
import { resourcesCopyOn } from "../expand/member-demand.js";
import { projectLimitsOf, requireDeclaredLimits } from "../expand/project-limits.js";
import { bodyOf, expandStored } from "../expand/stored.js";
import { isUuid, projectOf } from "../expand/target.js";
import { childrenFor } from "../model/member-tree.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { allocationsOf } from "../store/allocations.js";
import { cloneDevices } from "../store/clone.js";
import type { NewInstance } from "../store/port.js";
import type { AllocationRow, InstanceRecord } from "../store/records.js";
import { mirroredOn, refuseMirroredMove } from "./mirrored-moves.js";

/**
 * What a move answers: the instance where it now is, where it came from, and how its new member
 * was chosen.
 */
export interface MoveOutcome {
  /** The instance as stored after the move. */
  instance: InstanceRecord;
  /** The member it left. */
  from: string;
  /** Who chose the new member. */
  decidedBy: DecidedBy;
  /** Members that passed every filter. */
  candidates: string[];
}

function withoutRevision(record: InstanceRecord): NewInstance {
  const { revision: _revision, ...rest } = record;
  return rest;
}

/** What a commit does not re-check on the reservation's member: the capacity it holds (growth is claimed). */
const HELD_BY_RESERVATION: ReadonlySet<string> = new Set(["capacity"]);

const INSTANCE_NAME = /^[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export class InstanceOps {
  constructor(
    private readonly runtime: EngineRuntime,
    private readonly maxAttempts: number,
  ) {}

  /** By name, or by UUID (reservations are addressable by UUID). */
  async find(project: string, ref: string): Promise<InstanceRecord> {
    const store = this.runtime.store;
    const record = isUuid(ref) ? await store.getInstanceById(ref) : await store.getInstance(project, ref);
    if (record === undefined || (isUuid(ref) && record.project !== project)) {
      throw notFound(`Instance "${ref}" not found in project "${project}"`);
    }
    return record;
  }

  private async claimReplace(
    previous: InstanceRecord,
    next: NewInstance,
    withLimits: boolean,
  ): Promise<InstanceRecord> {
    const runtime = this.runtime;
    const limits = withLimits ? projectLimitsOf(projectOf(runtime, next.project)) : {};
    const edit = new EditsPlan(runtime, {
      replace: [{ previous, next }],
      limits: { project: next.project, limits },
    });
    const { result } = await claimWithRetries(runtime, 1, edit);
    return result.instances[0]!;
  }

  /**
   * PUT (replace the editable fields) or PATCH (merge config/devices key by
   * key). Resources are recomputed; growth is re-checked against capacity
   * and project limits on the instance's member.
   */
  async update(
    project: string,
    ref: string,
    changes: InstancePut,
    mode: "put" | "patch",
  ): Promise<InstanceRecord> {
    await this.runtime.sync();
    const record = await this.find(project, ref);
    return this.claimReplace(record, await this.edited(record, changes, mode), true);
  }

  /** The record after an edit, with allocations recomputed on its member. */
  private async edited(
    record: InstanceRecord,
    changes: InstancePut,
    mode: "put" | "patch",
  ): Promise<NewInstance> {
    const runtime = this.runtime;
    const project = record.project;
    const body: InstancesPost = bodyOf(record);
    if (mode === "put") {
      body.config = { ...(changes.config ?? {}) };
      body.devices = cloneDevices(changes.devices ?? {});
    } else {
      body.config = { ...body.config, ...(changes.config ?? {}) };
      body.devices = { ...body.devices, ...cloneDevices(changes.devices ?? {}) };
    }
    if (changes.profiles !== undefined) body.profiles = [...changes.profiles];
    if (changes.description !== undefined) body.description = changes.description;
    if (changes.ephemeral !== undefined) body.ephemeral = changes.ephemeral;
    if (changes.architecture !== undefined && changes.architecture !== "")
      body.architecture = changes.architecture;
    const projectRecord = projectOf(runtime, project);
    const catalog = new CatalogCache(runtime);
    const request = expandRequest(body, record.name, await catalog.expansionCatalog(projectRecord, body));
    requireDeclaredLimits({
      name: record.name,
      projectName: project,
      limits: projectLimitsOf(projectRecord),
      expandedConfig: request.expandedConfig,
    });
    if (
      request.placementGroup !== null &&
      runtime.model.placementGroup(project, request.placementGroup) === undefined
    ) {
      throw notFound(`Placement group "${request.placementGroup}" not found in project "${project}"`);
    }
    return {
      ...withoutRevision(record),
      description: body.description ?? record.description,
      ephemeral: body.ephemeral ?? record.ephemeral,
      architecture: body.architecture ?? record.architecture,
      profiles: request.profiles,
      config: request.config,
      devices: request.devices,
      placementGroup: request.placementGroup,
      allocations: mirroredOn(record, this.allocationsOnOwnMember(record, request)),
      limitsUsage: request.limitsUsage,
    };
  }

  /**
   * What an edited instance holds on the member it is on (a memory share
   * sized there); a class the member lacks stays on the child provider that
   * holds it, else goes to the one its tree chooses.
   */
  private allocationsOnOwnMember(record: InstanceRecord, request: ExpandedRequest): AllocationRow[] {
    const ledger = record.forthcoming ? "forthcoming" : "used";
    const member = this.runtime.model.member(record.location);
    if (member === undefined) return allocationsOf(record.location, { ...request.resources }, ledger);
    const amounts = resourcesCopyOn(request, member.record);
    const kept = new Map<string, string>();
    for (const row of record.allocations)
      if (row.member !== record.location && row.member !== record.secondary)
        kept.set(row.resourceClass, row.member);
    return allocationsOf(record.location, amounts, ledger, childrenFor(member, amounts, kept));
  }

  async rename(project: string, ref: string, newName: string): Promise<InstanceRecord> {
    if (!INSTANCE_NAME.test(newName)) {
      throw invalid(
        `Invalid instance name "${newName}": must be 1-63 letters, digits and hyphens, starting with a letter`,
      );
    }
    const record = await this.find(project, ref);
    if (record.name === newName) return record;
    return this.claimReplace(record, { ...withoutRevision(record), name: newName }, false);
  }

  async delete(project: string, ref: string): Promise<void> {
    const record = await this.find(project, ref);
    await claimWithRetries(this.runtime, 1, new EditsPlan(this.runtime, { remove: [record] }));
  }

  /**
   * Turns a reservation into a real instance on the member it reserved. Its
   * allocations only change ledger, so this never fails for capacity; when
   * `changes` make it bigger, only the growth is re-checked (capacity and
   * project limits).
   */
  async commit(
    project: string,
    ref: string,
    options: { name?: string; changes?: InstancePut } = {},
  ): Promise<InstanceRecord> {
    await this.runtime.sync();
    const record = await this.find(project, ref);
    if (!record.forthcoming) throw conflict(`Instance "${ref}" is not a reservation`);
    const name = options.name ?? record.name;
    if (name === "") throw invalid("A reservation without a name must be given one when it is committed");
    if (!INSTANCE_NAME.test(name)) throw invalid(`Invalid instance name "${name}"`);
    // The reservation's member must still take the instance; its capacity is already held.
    const held = await expandStored(this.runtime, new CatalogCache(this.runtime), record, { reason: "new" });
    checkNamedMember(this.runtime, held, record.location, { skip: HELD_BY_RESERVATION });
    const base =
      options.changes === undefined
        ? withoutRevision(record)
        : await this.edited(record, options.changes, "patch");
    const next: NewInstance = {
      ...base,
      name,
      forthcoming: false,
      allocations: base.allocations.map((row) => ({ ...row, ledger: "used" as const })),
    };
    return this.claimReplace(record, next, options.changes !== undefined);
  }

  /**
   * Moves an instance (or reservation). `@group` runs the pipeline with
   * reason `relocation` (the scriptlet included) without the current member;
   * a member target goes through the whole stack (named-member.ts: not the
   * current member, online, not evacuated, ..., capacity). `signal`: the
   * caller gave up (the scriptlet stops).
   */
  async move(
    project: string,
    ref: string,
    target: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<MoveOutcome> {
    const runtime = this.runtime;
    if (target === "") throw invalid("A move needs a target (a member or @group)");
    await runtime.sync();
    const record = await this.find(project, ref);
    refuseMirroredMove(record);
    const request = await expandStored(runtime, new CatalogCache(runtime), record, {
      reason: "relocation",
      target,
      excluded: new Set([record.location]),
    });
    // The caller giving up (`signal`) stops the scriptlet's run, as for a create.
    const scriptlet =
      request.target?.kind === "group" ? await scriptletSetup(runtime, undefined, options) : null;
    const placement = new PlacementsPlan(runtime, [{ request, moving: { record, origin: null } }], {
      scriptlet,
    });
    const { result } = await claimWithRetries(runtime, this.maxAttempts, placement);
    const { decidedBy, candidates } = placement.decisions[0]!;
    return { instance: result.instances[0]!, from: record.location, decidedBy, candidates };
  }
}
