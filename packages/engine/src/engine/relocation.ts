/**
 * Evacuation (reason `evacuation`), healing of dead members (reason
 * `relocation`) and restore. An evacuation plans every instance of the
 * member against the model (earlier ones held as in-flight) and claims all
 * moves at once, like a bulk create: either every movable instance leaves
 * or none does, and the member's state is reverted on failure. Each moved
 * instance records its origin; restore moves exactly those back.
 */
import { EngineError } from "../errors.js";
import { claimWithRetries } from "../pipeline/claim.js";
import { CatalogCache } from "../pipeline/expand/catalog-cache.js";
import { expandStored } from "../pipeline/expand/stored.js";
import { plan } from "../pipeline/plan.js";
import type { PlacementRequest } from "../pipeline/request.js";
import { scriptletSetup } from "../pipeline/scriptlet-setup.js";
import type { PlacementReason } from "../scriptlet/port.js";
import type { InstanceRecord } from "../store/records.js";
import type { EngineRuntime } from "./runtime.js";

export interface MovedInstance {
  project: string;
  name: string;
  id: string;
  from: string;
  to: string;
}

export interface EvacuationOutcome {
  member: string;
  moved: MovedInstance[];
  /** Instances with `cluster.evacuate=stop`: they stay where they are. */
  stayed: { project: string; name: string; id: string }[];
}

function isConcurrentChange(error: EngineError): boolean {
  const reason = (error.details as { reason?: string } | undefined)?.reason;
  return reason === "revision" || reason === "instance_missing";
}

function labelOf(record: InstanceRecord): string {
  return record.name === "" ? record.id : record.name;
}

export class Relocation {
  constructor(
    private readonly runtime: EngineRuntime,
    private readonly maxAttempts: number,
  ) {}

  private async setEvacuated(name: string, evacuated: boolean): Promise<void> {
    const record = await this.runtime.store.updateMember(name, { evacuated });
    this.runtime.model.upsertMember(record);
  }

  async evacuate(name: string, reason: PlacementReason = "evacuation"): Promise<EvacuationOutcome> {
    const runtime = this.runtime;
    await runtime.sync();
    await runtime.ensureMember(name);
    const wasEvacuated = runtime.model.member(name)!.record.evacuated;
    await this.setEvacuated(name, true);
    try {
      const instances = await runtime.store.listInstances({ location: name });
      const stayed = instances.filter((record) => record.config["cluster.evacuate"] === "stop");
      const movable = instances.filter((record) => record.config["cluster.evacuate"] !== "stop");
      const catalog = new CatalogCache(runtime);
      const requests: PlacementRequest[] = [];
      for (const record of movable) requests.push(await expandStored(runtime, catalog, record, { reason }));
      const scriptlet = await scriptletSetup(runtime);
      const { result } = await claimWithRetries(runtime, this.maxAttempts, (draft) => {
        draft.claim.replace = [];
        for (const [index, record] of movable.entries()) {
          const request = requests[index]!;
          let member: string;
          try {
            member = plan(runtime, request, { scriptlet }).member.name;
          } catch (error) {
            if (!(error instanceof EngineError)) throw error;
            throw new EngineError(
              error.kind,
              `Failed to evacuate cluster member "${name}": instance "${labelOf(record)}" in project "${record.project}": ${error.message}`,
              { ...(error.details ?? {}), instance: labelOf(record), project: record.project },
            );
          }
          draft.move(request, record, member, name);
        }
      });
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
      // the instances first: the member is evacuated, so keep it that way.
      const raced = error instanceof EngineError && isConcurrentChange(error);
      if (!wasEvacuated && !raced) await this.setEvacuated(name, false);
      throw error;
    }
  }

  /** Marks the member available again and moves back every instance evacuated from it. */
  async restore(name: string): Promise<{ member: string; moved: MovedInstance[] }> {
    const runtime = this.runtime;
    await runtime.ensureMember(name);
    await this.setEvacuated(name, false);
    const returning = (await runtime.store.listInstances()).filter((record) => record.origin === name);
    if (returning.length === 0) return { member: name, moved: [] };
    const catalog = new CatalogCache(runtime);
    const requests: PlacementRequest[] = [];
    for (const record of returning) {
      requests.push(await expandStored(runtime, catalog, record, { reason: "relocation" }));
    }
    // Restore names its member: each instance goes back where it came from, no candidates to rank.
    const { result } = await claimWithRetries(runtime, 1, (draft) => {
      for (const [index, record] of returning.entries()) draft.move(requests[index]!, record, name, null);
    });
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
