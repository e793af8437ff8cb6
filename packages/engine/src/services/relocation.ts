/**
 * Evacuation (reason `evacuation`), healing of dead members (reason
 * `relocation`) and restore. An evacuation plans every instance of the
 * member against the model (earlier ones held as in-flight) and claims all
 * moves at once, like a bulk create: either every movable instance leaves
 * and the member is evacuated, or nothing changes. The member's state is
 * written by the same claim as the moves, so even a crash (SIGKILL) leaves
 * the cluster before or after. Each moved instance records its origin;
 * restore moves exactly those back, with the member's state, in one claim.
 */

import { EngineError, invalid } from "../base/errors.js";
import { claimWithRetries } from "../claim/claim.js";
import { EditsPlan } from "../claim/edits.js";
import { PlacementsPlan } from "../claim/placements.js";
import { movedDecision } from "../decide/record.js";
import { scriptletSetup } from "../decide/scriptlet-setup.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import type { PlacementRequest } from "../expand/request.js";
import { expandStored } from "../expand/stored.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import type { PlacementReason } from "../scriptlet/port.js";
import type { InstanceRecord, MemberRecord } from "../store/records.js";
import { refuseMirroredEvacuation } from "./mirrored-moves.js";

/** One instance an evacuation, a restore or healing moved. */
export interface MovedInstance {
  /** Its project. */
  project: string;
  /** Its name. */
  name: string;
  /** Its id. */
  id: string;
  /** The member it left. */
  from: string;
  /** The member it went to. */
  to: string;
}

/** What an evacuation (or a healing pass) did to one member. */
export interface EvacuationOutcome {
  /** The member evacuated. */
  member: string;
  /** The instances moved, all in one claim. */
  moved: MovedInstance[];
  /** Instances with `cluster.evacuate=stop`: they stay where they are. */
  stayed: {
    /** The instance's project. */
    project: string;
    /** The instance's name. */
    name: string;
    /** The instance's id. */
    id: string;
  }[];
}

function isConcurrentChange(error: unknown): boolean {
  if (!(error instanceof EngineError)) return false;
  const reason = (error.details as { reason?: string } | undefined)?.reason;
  return reason === "revision" || reason === "instance_missing";
}

/** The filter a restore settles itself: it lifts the member's evacuation. */
const LIFTED_BY_RESTORE: ReadonlySet<string> = new Set(["evacuated"]);

function labelOf(record: InstanceRecord): string {
  return record.name === "" ? record.id : record.name;
}

export class Relocation {
  constructor(
    private readonly runtime: EngineRuntime,
    private readonly maxAttempts: number,
  ) {}

  /**
   * Marks the member evacuated (or not) in this engine's model only, for
   * planning: the store records it with the moves, in their claim.
   */
  private markInModel(name: string, evacuated: boolean): MemberRecord {
    const model = this.runtime.model;
    const before = model.member(name)!.record;
    if (before.evacuated !== evacuated) model.upsertMember({ ...before, evacuated });
    return before;
  }

  async evacuate(name: string, reason: PlacementReason = "evacuation"): Promise<EvacuationOutcome> {
    const runtime = this.runtime;
    await runtime.sync();
    await runtime.ensureMember(name);
    const instances = await runtime.store.listInstances({ location: name });
    await refuseMirroredEvacuation(runtime.store, name, instances);
    const stayed = instances.filter((record) => record.config["cluster.evacuate"] === "stop");
    const movable = instances.filter((record) => record.config["cluster.evacuate"] !== "stop");
    const catalog = new CatalogCache(runtime);
    const requests: PlacementRequest[] = [];
    for (const record of movable) requests.push(await expandStored(runtime, catalog, record, { reason }));
    const scriptlet = await scriptletSetup(runtime);
    // Evacuated in the model while planning: nothing (these moves included) is placed on it meanwhile.
    const before = this.markInModel(name, true);
    try {
      const moves = new PlacementsPlan(
        runtime,
        movable.map((record, index) => ({ request: requests[index]!, moving: { record, origin: name } })),
        {
          scriptlet,
          evacuating: name,
          refusal: (error, index) => {
            if (!(error instanceof EngineError)) return error;
            const record = movable[index]!;
            return new EngineError(
              error.kind,
              `Failed to evacuate cluster member "${name}": instance "${labelOf(record)}" in project "${record.project}": ${error.message}`,
              { ...(error.details ?? {}), instance: labelOf(record), project: record.project },
            );
          },
        },
      );
      const { result } = await claimWithRetries(runtime, this.maxAttempts, moves);
      return {
        member: name,
        moved: result.instances.map((instance) => ({
          project: instance.project,
          name: instance.name,
          id: instance.id,
          from: name,
          to: instance.location,
        })),
        stayed: stayed.map((record) => ({ project: record.project, name: record.name, id: record.id })),
      };
    } catch (error) {
      // A concurrent writer (another process healing the same member) moved
      // the instances first: re-read the member as the store has it.
      const stored = isConcurrentChange(error) ? await runtime.store.getMember(name) : undefined;
      runtime.model.upsertMember(stored ?? before);
      throw error;
    }
  }

  /**
   * Marks the member available again and moves back every instance
   * evacuated from it, in one claim: all return and the member is restored,
   * or nothing changes. The member must be online, and each instance goes
   * through the stack on it like any named member (named-member.ts; its
   * evacuation is what a restore lifts).
   */
  async restore(name: string): Promise<{ member: string; moved: MovedInstance[] }> {
    const runtime = this.runtime;
    await runtime.sync();
    await runtime.ensureMember(name);
    const member = runtime.model.member(name)!;
    const { nowMs, offlineThresholdMs } = runtime.timing();
    // Restore brings a member back into service: a silent one is not (LXD reaches the member to restore it).
    if (!member.isOnline(nowMs, offlineThresholdMs)) {
      throw invalid(`Cluster member "${name}" is offline: it can't be restored until it heartbeats again`);
    }
    const returning = (await runtime.store.listInstances()).filter((record) => record.origin === name);
    const catalog = new CatalogCache(runtime);
    const requests: PlacementRequest[] = [];
    for (const record of returning) {
      requests.push(await expandStored(runtime, catalog, record, { reason: "relocation" }));
    }
    // Restore names its member: each instance goes back where it came from, no candidates to rank.
    const decision = movedDecision(
      "restore",
      name,
      runtime.clock.now().toISOString(),
      runtime.model.allMembers().length,
    );
    const restore = new EditsPlan(runtime, {
      memberState: { member: name, evacuated: false },
      moves: returning.map((record, index) => ({
        request: requests[index]!,
        record,
        member: name,
        origin: null,
        decision,
        checked: { skip: LIFTED_BY_RESTORE },
      })),
    });
    const { result } = await claimWithRetries(runtime, 1, restore);
    return {
      member: name,
      moved: result.instances.map((instance, index) => ({
        project: instance.project,
        name: instance.name,
        id: instance.id,
        from: returning[index]!.location,
        to: name,
      })),
    };
  }
}
