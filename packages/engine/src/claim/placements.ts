/**
 * The plan of a claim that places instances: each attempt runs steps 3
 * and 4 (decide/plan.ts: candidates, then the decision) for every
 * placement, in order, against the model, and writes what was decided into
 * the attempt's draft, which holds the capacity so the next placement of
 * the same claim sees it. Creates, bulk creates, moves and evacuations are
 * all this plan; a lost race runs it again (claim.ts).
 */

import type { PlanContext } from "../decide/context.js";
import type { ScriptletSetup } from "../decide/decide.js";
import { type PlannedDecision, plan, recordOfDecision } from "../decide/plan.js";
import type { PlacementRequest } from "../expand/request.js";
import type { InstanceRecord } from "../store/records.js";
import type { ClaimPlan } from "./claim.js";
import type { ClaimDraft } from "./draft.js";

/** One instance to place: created, or, with `moving`, a stored one moved. */
export interface Placement {
  readonly request: PlacementRequest;
  /** The stored instance moved, and the member it is evacuated from (null: a plain move). */
  readonly moving?: { readonly record: InstanceRecord; readonly origin: string | null };
}

export interface PlacementsOptions {
  /** The operation's scriptlet (decide/scriptlet-setup.ts); null: none runs. */
  readonly scriptlet: ScriptletSetup | null;
  /** The order to place in (indices into the placements); the claim keeps their own order. */
  readonly order?: readonly number[];
  /** The member the same claim marks evacuated (the moves leave it). */
  readonly evacuating?: string;
  /** Names placement `index` in its refusal (a bulk create, an evacuation). */
  readonly refusal?: (error: unknown, index: number) => unknown;
}

/**
 * The ISO form of `time`, formatted once per millisecond: `toISOString`
 * was a visible share of one placement's CPU, and back-to-back creates
 * mostly fall in the same millisecond.
 */
let lastTime = Number.NaN;
let lastIso = "";
function isoTimeOf(time: Date): string {
  const ms = time.getTime();
  if (ms !== lastTime) {
    lastIso = time.toISOString();
    lastTime = ms;
  }
  return lastIso;
}

export class PlacementsPlan implements ClaimPlan {
  /** The decisions of the last attempt, by placement index. */
  readonly decisions: PlannedDecision[] = [];

  constructor(
    private readonly context: PlanContext,
    private readonly placements: readonly Placement[],
    private readonly options: PlacementsOptions,
  ) {}

  /** Synchronous unless a scriptlet runs (see decide/plan.ts): no promise hop per default placement. */
  planInto(draft: ClaimDraft): void | Promise<void> {
    const at = isoTimeOf(this.context.clock.now());
    // The member's new state lands with the moves, in one transaction.
    if (this.options.evacuating !== undefined) draft.setEvacuated(this.options.evacuating, true);
    return this.placeFrom((this.options.order ?? this.placements.keys())[Symbol.iterator](), draft, at);
  }

  /** Plans and writes the placements `indices` has left, waiting only for a plan that runs a scriptlet. */
  private placeFrom(indices: Iterator<number>, draft: ClaimDraft, at: string): void | Promise<void> {
    for (let next = indices.next(); next.done !== true; next = indices.next()) {
      const index = next.value;
      let planned: PlannedDecision | Promise<PlannedDecision>;
      try {
        planned = plan(this.context, this.placements[index]!.request, { scriptlet: this.options.scriptlet });
      } catch (error) {
        throw this.refusal(error, index);
      }
      if (planned instanceof Promise) {
        return planned.then(
          (decision) => {
            this.write(draft, index, decision, at);
            return this.placeFrom(indices, draft, at);
          },
          (error: unknown) => {
            throw this.refusal(error, index);
          },
        );
      }
      this.write(draft, index, planned, at);
    }
    // Moves add no instance to a project: only creates are re-checked against its limits.
    for (const { request, moving } of this.placements)
      if (moving === undefined) draft.limit(request.projectName, request.limits);
  }

  /** Placement `index`, decided: its record and its capacity held in the draft. */
  private write(draft: ClaimDraft, index: number, decision: PlannedDecision, at: string): void {
    const { request, moving } = this.placements[index]!;
    this.decisions[index] = decision;
    const record = recordOfDecision(this.context, request, decision, at);
    const member = decision.member.name;
    if (moving === undefined) draft.create(request, member, record, at, index);
    else draft.move(request, moving.record, member, moving.origin, record);
  }

  private refusal(error: unknown, index: number): unknown {
    return this.options.refusal === undefined ? error : this.options.refusal(error, index);
  }
}
