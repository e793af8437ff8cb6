/**
 * A member a path names directly: `?target=member` on create, bulk and
 * reservations, a move, the member a reservation is committed on, the
 * member a restore brings instances back to. It goes through every
 * feasibility filter of the stack, as automatic placement does (Berth
 * never places where automatic placement would not, except that naming a
 * member satisfies its `scheduler.instance`), and the first rejection is
 * answered in LXD/Incus's words where they have them (the rejection's
 * `refusal`), else in Berth's: `Cluster member "x" can't take instance
 * "y" in project "p": it lacks CUSTOM_FPGA`. This is the one check every
 * such path calls.
 */

import { EngineError, insufficientCapacity, invalid, notFound } from "../base/errors.js";
import { type PlacementRequest, subjectOf } from "../expand/request.js";
import type { MemberState } from "../model/member-state.js";
import type { PlanContext } from "./context.js";

export interface NamedMemberOptions {
  /** Filters the path settles itself (by filter name), e.g. "evacuated" for a restore. */
  skip?: ReadonlySet<string>;
}

/** The named member when `request` may go there; throws the first refusal otherwise. */
export function checkNamedMember(
  context: Pick<PlanContext, "model" | "stack" | "timing">,
  request: PlacementRequest,
  name: string,
  options: NamedMemberOptions = {},
): MemberState {
  const member = context.model.member(name);
  if (member === undefined) throw notFound(`Cluster member "${name}" not found`);
  // The filters read the target: naming the member is what makes it a target (scheduler.instance).
  const named: PlacementRequest =
    request.target?.kind === "member" && request.target.name === name
      ? request
      : { ...request, target: { kind: "member", name } };
  const why = context.stack.check(member, named, context.timing(), options.skip);
  if (why === undefined) return member;
  const details = { member: name, rejection: why.code };
  const refusal = why.refusal?.({ member: name, moving: request.reason !== "new" });
  if (refusal !== undefined) throw new EngineError(refusal.kind, refusal.message, details);
  const message = `Cluster member "${name}" can't take ${subjectOf(request)}: it ${why.one}`;
  throw why.capacity ? insufficientCapacity(message, details) : invalid(message, details);
}
