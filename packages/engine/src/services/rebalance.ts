/**
 * Rebalancing, Ganeti hbal style: greedy, one move per round, each round
 * taking the move that lowers the imbalance score most; stop when no move
 * gains enough (hbal's defaults: any gain while the score is above
 * `minGainLimit`, at least `minGain` below it; stop at `minScore`).
 * Reservations are preferred: their moves are record edits with nothing to
 * migrate, so a reservation move is taken whenever it achieves at least
 * `reservationPreference` of the best gain. Every move is checked by the
 * scriptlet (reason `rebalance`, the target as the only candidate); a move it
 * rejects is dropped and the next best one tried. Applying a plan is one
 * claim: all moves land or none do.
 */
import { inventoryCapacity } from "@berth/resources";
import { EngineError } from "../base/errors.js";
import { demandOf, fitsAll } from "../candidates/filters/capacity.js";
import { claimWithRetries } from "../claim/claim.js";
import { type ChosenMove, EditsPlan } from "../claim/edits.js";
import { decide, type ScriptletSetup } from "../decide/decide.js";
import { movedDecision } from "../decide/record.js";
import { scriptletSetup } from "../decide/scriptlet-setup.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import { resourcesOn } from "../expand/member-demand.js";
import type { PlacementRequest } from "../expand/request.js";
import { expandStored, resourcesOf } from "../expand/stored.js";
import type { MemberState } from "../model/member-state.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import type { InstanceRecord } from "../store/records.js";
import { placementView } from "../views/views.js";
import { ImbalanceModel, type MemberLoad } from "./imbalance.js";

/** When the rebalancer stops: Ganeti hbal's limits on moves, gain and score. */
export interface RebalanceOptions {
  /** Most moves in one plan (default 100). */
  maxMoves?: number;
  /** Least gain per move once the score is at or below `minGainLimit` (default 0.01). */
  minGain?: number;
  /** Score under which `minGain` applies (default 0.1). */
  minGainLimit?: number;
  /** Stop once the score is at or below this (default 1e-9). */
  minScore?: number;
  /** A reservation move is preferred when its gain is at least this share of the best gain (default 0.5). */
  reservationPreference?: number;
}

/** One move of a rebalancing plan. */
export interface RebalanceMove {
  /** The instance's id. */
  id: string;
  /** Its project. */
  project: string;
  /** Its name. */
  name: string;
  /** A reservation (moving it is a record edit). */
  forthcoming: boolean;
  /** The member it leaves. */
  from: string;
  /** The member it goes to. */
  to: string;
  /** How much the imbalance score falls with this move. */
  gain: number;
}

/**
 * A rebalancing plan: the moves in order, the score before and after, and whether they were made.
 */
export interface RebalancePlan {
  /** The moves, in the order they were chosen. */
  moves: RebalanceMove[];
  /** The imbalance score before (0: perfectly even). */
  scoreBefore: number;
  /** The score once every move is made. */
  scoreAfter: number;
  /** True when `apply()` claimed the moves. */
  applied: boolean;
}

interface Movable {
  record: InstanceRecord;
  request: PlacementRequest;
  resources: Record<string, number>;
  location: string;
  /** Members the stack's static filters allow it on (scheduler rules, project groups, architecture, traits). */
  allowed: ReadonlySet<MemberState>;
}

function loadOf(member: MemberState): MemberLoad {
  const capacity = new Map<string, number>();
  for (const [resourceClass, inventory] of Object.entries(member.record.inventories)) {
    capacity.set(resourceClass, inventoryCapacity(inventory));
  }
  return {
    name: member.name,
    capacity,
    used: new Map(member.used),
    forthcoming: new Map(member.forthcoming),
    count: member.instanceCount,
  };
}

export class Rebalancer {
  constructor(private readonly runtime: EngineRuntime) {}

  private schedulable(): MemberState[] {
    const { nowMs, offlineThresholdMs } = this.runtime.timing();
    return this.runtime.model
      .allMembers()
      .filter((member) => !member.record.evacuated && member.isOnline(nowMs, offlineThresholdMs));
  }

  /** The current imbalance score over schedulable members. */
  score(): number {
    return new ImbalanceModel(this.schedulable().map(loadOf)).score();
  }

  async plan(
    options: RebalanceOptions = {},
  ): Promise<{ plan: RebalancePlan; records: Map<string, InstanceRecord> }> {
    const runtime = this.runtime;
    await runtime.sync();
    const maxMoves = options.maxMoves ?? 100;
    const minGain = options.minGain ?? 0.01;
    const minGainLimit = options.minGainLimit ?? 0.1;
    const minScore = options.minScore ?? 1e-9;
    const preference = options.reservationPreference ?? 0.5;

    const members = this.schedulable();
    const imbalance = new ImbalanceModel(members.map(loadOf));
    const scoreBefore = imbalance.score();
    const catalog = new CatalogCache(runtime);
    const movables: Movable[] = [];
    const records = new Map<string, InstanceRecord>();
    // Instances of one shape share the stack's cached static candidates, and so one set here.
    const allowedSets = new WeakMap<readonly MemberState[], ReadonlySet<MemberState>>();
    for (const record of await runtime.store.listInstances()) {
      if (imbalance.member(record.location) === undefined) continue;
      const request = await expandStored(runtime, catalog, record, { reason: "rebalance" });
      // Strict placement groups pin their members; rebalancing must not break them.
      if (request.groupPolicy?.rigor === "strict") continue;
      const staticCandidates = runtime.stack.staticCandidates(runtime.model, request);
      let allowed = allowedSets.get(staticCandidates);
      if (allowed === undefined) allowedSets.set(staticCandidates, (allowed = new Set(staticCandidates)));
      movables.push({ record, request, resources: resourcesOf(record), location: record.location, allowed });
      records.set(record.id, record);
    }
    const scriptlet = await scriptletSetup(runtime);
    const refused = new Set<string>();
    const moves: RebalanceMove[] = [];

    while (moves.length < maxMoves) {
      const score = imbalance.score();
      if (score <= minScore) break;
      const choices: { movable: Movable; to: MemberState; gain: number }[] = [];
      for (const movable of movables) {
        for (const target of members) {
          if (target.name === movable.location || refused.has(`${movable.record.id}>${target.name}`))
            continue;
          if (!movable.allowed.has(target)) continue;
          // A memory share is sized again on the target (expand/member-demand.ts).
          const arriving = resourcesOn(movable.request, target.record);
          if (!this.fits(imbalance.member(target.name)!, target, arriving)) continue;
          const after = imbalance.scoreAfterMove(
            movable.location,
            target.name,
            movable.resources,
            movable.record.forthcoming,
            movable.request.memoryShare === null ? movable.resources : arriving,
          );
          const gain = score - after;
          if (gain > 1e-12) choices.push({ movable, to: target, gain });
        }
      }
      if (choices.length === 0) break;
      const best = Math.max(...choices.map((choice) => choice.gain));
      // Reservations first when they gain enough, then by gain; ties keep a stable, deterministic order.
      choices.sort((a, b) => {
        const aPreferred = a.movable.record.forthcoming && a.gain >= preference * best ? 1 : 0;
        const bPreferred = b.movable.record.forthcoming && b.gain >= preference * best ? 1 : 0;
        return bPreferred - aPreferred || b.gain - a.gain;
      });
      let chosen: (typeof choices)[number] | undefined;
      for (const option of choices) {
        const enough = score > minGainLimit ? option.gain > 0 : option.gain >= minGain;
        if (!enough) continue;
        if (await this.scriptletAccepts(scriptlet, option.movable, option.to)) {
          chosen = option;
          break;
        }
        refused.add(`${option.movable.record.id}>${option.to.name}`);
      }
      if (chosen === undefined) break;
      const arrived = resourcesOn(chosen.movable.request, chosen.to.record);
      imbalance.applyMove(
        chosen.movable.location,
        chosen.to.name,
        chosen.movable.resources,
        chosen.movable.record.forthcoming,
        chosen.movable.request.memoryShare === null ? chosen.movable.resources : arrived,
      );
      chosen.movable.resources = { ...arrived };
      moves.push({
        id: chosen.movable.record.id,
        project: chosen.movable.record.project,
        name: chosen.movable.record.name,
        forthcoming: chosen.movable.record.forthcoming,
        from: chosen.movable.location,
        to: chosen.to.name,
        gain: chosen.gain,
      });
      chosen.movable.location = chosen.to.name;
    }
    return { plan: { moves, scoreBefore, scoreAfter: imbalance.score(), applied: false }, records };
  }

  /** The capacity filter's verdict against the plan's simulated usage (both ledgers). */
  private fits(load: MemberLoad, member: MemberState, resources: Readonly<Record<string, number>>): boolean {
    const simulated = {
      consumed: (resourceClass: string) =>
        (load.used.get(resourceClass) ?? 0) + (load.forthcoming.get(resourceClass) ?? 0),
    };
    return fitsAll(member.inventories, simulated, demandOf(resources));
  }

  private async scriptletAccepts(
    scriptlet: ScriptletSetup | null,
    movable: Movable,
    target: MemberState,
  ): Promise<boolean> {
    if (scriptlet === null) return true;
    try {
      await decide(
        { candidates: [target], rejected: [] },
        movable.request,
        scriptlet,
        this.runtime.timing(),
        placementView(movable.request, false),
      );
      return true;
    } catch (error) {
      if (error instanceof EngineError && error.kind === "scriptlet") {
        this.runtime.logger.log("info", "rebalance move refused by the scriptlet", {
          instance: movable.record.name,
          project: movable.record.project,
          target: target.name,
          error: error.message,
        });
        return false;
      }
      throw error;
    }
  }

  /** Plans and applies in one claim (every move lands or none). */
  async apply(options: RebalanceOptions = {}): Promise<RebalancePlan> {
    const runtime = this.runtime;
    const { plan, records } = await this.plan(options);
    if (plan.moves.length === 0) return { ...plan, applied: true };
    const finalLocation = new Map<string, string>();
    for (const move of plan.moves) finalLocation.set(move.id, move.to);
    const catalog = new CatalogCache(runtime);
    const requests = new Map<string, PlacementRequest>();
    for (const id of finalLocation.keys()) {
      requests.set(id, await expandStored(runtime, catalog, records.get(id)!, { reason: "rebalance" }));
    }
    const at = runtime.clock.now().toISOString();
    const members = runtime.model.allMembers().length;
    const moves: ChosenMove[] = [];
    for (const [id, to] of finalLocation) {
      const record = records.get(id)!;
      if (record.location === to) continue;
      const decision = movedDecision("rebalance", to, at, members);
      moves.push({ request: requests.get(id)!, record, member: to, origin: record.origin, decision });
    }
    await claimWithRetries(runtime, 1, new EditsPlan(runtime, { moves }));
    return { ...plan, applied: true };
  }
}
