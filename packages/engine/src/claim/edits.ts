/**
 * The plan of a claim that places nothing by itself: edits of stored
 * instances (a replaced record, a removal) and moves to members already
 * chosen (a restore brings instances back to their member, checked there
 * like any named member; a rebalance applies the moves it planned).
 */

import type { PlanContext } from "../decide/context.js";
import { checkNamedMember, type NamedMemberOptions } from "../decide/named-member.js";
import type { PlacementRequest } from "../expand/request.js";
import type { NewInstance, ProjectLimits } from "../store/port.js";
import type { InstanceRecord, PlacementDecisionRecord } from "../store/records.js";
import type { ClaimPlan } from "./claim.js";
import type { ClaimDraft } from "./draft.js";

/** A stored instance moved to `member`, decided by `decision`. */
export interface ChosenMove {
  readonly request: PlacementRequest;
  readonly record: InstanceRecord;
  readonly member: string;
  /** The member it is evacuated from, kept on the record (null: none). */
  readonly origin: string | null;
  readonly decision: PlacementDecisionRecord;
  /** Checked on its member through the stack first (named-member.ts), skipping these filters. */
  readonly checked?: NamedMemberOptions;
}

export interface Edits {
  readonly replace?: readonly { readonly previous: InstanceRecord; readonly next: NewInstance }[];
  readonly remove?: readonly InstanceRecord[];
  readonly moves?: readonly ChosenMove[];
  /** A member's maintenance state, set in the same claim (a restore lifts an evacuation). */
  readonly memberState?: { readonly member: string; readonly evacuated: boolean };
  /** Project limits the store re-checks with the claim. */
  readonly limits?: { readonly project: string; readonly limits: ProjectLimits };
}

export class EditsPlan implements ClaimPlan {
  constructor(
    private readonly context: Pick<PlanContext, "model" | "stack" | "timing">,
    private readonly edits: Edits,
  ) {}

  planInto(draft: ClaimDraft): void {
    const { memberState, replace = [], remove = [], moves = [], limits } = this.edits;
    if (memberState !== undefined) draft.setEvacuated(memberState.member, memberState.evacuated);
    for (const { previous, next } of replace) draft.replace(previous, next);
    for (const record of remove) draft.remove(record);
    for (const move of moves) {
      if (move.checked !== undefined) checkNamedMember(this.context, move.request, move.member, move.checked);
      draft.move(move.request, move.record, move.member, move.origin, move.decision);
    }
    if (limits !== undefined) draft.limit(limits.project, limits.limits);
  }
}
