/**
 * The members a worker's scriptlet reads, kept in step across runs by
 * identity. The engine replaces a member's record (and so its state and
 * resources objects) on every change and keeps one frozen view per record
 * and status, so "same object as last sent" means "unchanged": a run posts
 * only the members that changed since the worker last saw them, plus the
 * candidates' order as slot numbers. At 10,000 candidates a run then costs
 * a walk of pointer compares and a 40 KB array, not a structured clone of
 * 10,000 views and states.
 *
 * Only the candidates of the current run are current in the worker; a
 * scriptlet asking about any other member goes to the main thread (rpc).
 *
 * Members that are gone (deleted, or renamed: the old name is gone) are
 * dropped from both sides: whenever a run's candidates are fewer than the
 * members mirrored, the sender asks the run's cluster view about each one
 * that is not a candidate (one lookup each) and posts the slots of those it
 * no longer knows; the worker forgets them and new members reuse the slots.
 * So the mirror holds at most the members that exist, not every name ever
 * seen, and a slot never carries a deleted member's record into a later run.
 */
import type { ClusterMemberStateView, ClusterMemberView, ResourcesView, ScriptletCall } from "../port.js";
import type { MemberUpdate } from "./protocol.js";

interface SentMember {
  slot: number;
  view: ClusterMemberView | undefined;
  state: ClusterMemberStateView | undefined;
  resources: ResourcesView | undefined;
}

const EMPTY_STATE: ClusterMemberStateView = Object.freeze({});

/** The main thread's record of what one worker holds. */
export class MirrorSender {
  private readonly sent = new Map<string, SentMember>();
  /** Slots of dropped members, for new members to take. */
  private readonly free: number[] = [];

  /** Members the worker holds. */
  get size(): number {
    return this.sent.size;
  }

  /**
   * The candidates as slots, the updates the worker needs for them, and the slots of members
   * that are gone.
   */
  prepare(
    call: ScriptletCall,
    withResources: boolean,
  ): { candidates: Int32Array; updates: MemberUpdate[]; dropped: number[] } {
    const views = call.candidates;
    const candidates = new Int32Array(views.length);
    const updates: MemberUpdate[] = [];
    for (let index = 0; index < views.length; index++) {
      const view = views[index]!;
      const name = view.server_name;
      let entry = this.sent.get(name);
      if (entry === undefined) {
        const slot = this.free.pop() ?? this.sent.size;
        entry = { slot, view: undefined, state: undefined, resources: undefined };
        this.sent.set(name, entry);
      }
      candidates[index] = entry.slot;
      const state = call.candidateState?.(index) ?? call.cluster.memberState(name) ?? EMPTY_STATE;
      const resources = withResources ? (call.cluster.memberResources(name) ?? {}) : undefined;
      const viewChanged = entry.view !== view;
      const stateChanged = entry.state !== state;
      const resourcesChanged = withResources && entry.resources !== resources;
      if (!viewChanged && !stateChanged && !resourcesChanged) continue;
      const update: MemberUpdate = { slot: entry.slot };
      if (viewChanged) {
        update.name = name;
        update.view = view;
        entry.view = view;
      }
      if (stateChanged) {
        update.state = state;
        entry.state = state;
      }
      if (resourcesChanged) {
        update.resources = resources;
        entry.resources = resources;
      }
      updates.push(update);
    }
    // Members beyond the candidates: some may be gone. Their slots go to the next run's new members.
    const dropped = this.sent.size > views.length ? this.dropGone(call) : [];
    return { candidates, updates, dropped };
  }

  /** Forgets the members, other than this run's candidates, that the run's cluster no longer has. */
  private dropGone(call: ScriptletCall): number[] {
    const candidateNames = new Set<string>();
    for (const view of call.candidates) candidateNames.add(view.server_name);
    const dropped: number[] = [];
    for (const [name, entry] of this.sent) {
      if (candidateNames.has(name)) continue;
      if (call.cluster.memberState(name) !== undefined) continue;
      this.sent.delete(name);
      this.free.push(entry.slot);
      dropped.push(entry.slot);
    }
    return dropped;
  }
}

interface MirroredMember {
  name: string;
  view: ClusterMemberView;
  state: ClusterMemberStateView;
  resources: ResourcesView | undefined;
  /** The run it was last a candidate of. */
  candidateOf: number;
}

/** The worker's copy. */
export class MirrorReceiver {
  private readonly slots: (MirroredMember | undefined)[] = [];
  private readonly bySlotName = new Map<string, number>();
  private run = 0;
  private order: Int32Array = new Int32Array(0);

  /** Members held. */
  get size(): number {
    return this.bySlotName.size;
  }

  /** Forgets the dropped members, applies a run's updates and makes its candidates current. */
  begin(candidates: Int32Array, updates: readonly MemberUpdate[], dropped: readonly number[] = []): void {
    for (const slot of dropped) {
      const member = this.slots[slot];
      if (member === undefined) continue;
      if (this.bySlotName.get(member.name) === slot) this.bySlotName.delete(member.name);
      this.slots[slot] = undefined;
    }
    for (const update of updates) {
      let member = this.slots[update.slot];
      if (member === undefined) {
        member = {
          name: update.name ?? "",
          view: update.view!,
          state: update.state ?? EMPTY_STATE,
          resources: undefined,
          candidateOf: 0,
        };
        this.slots[update.slot] = member;
      }
      if (update.name !== undefined) {
        if (member.name !== update.name && this.bySlotName.get(member.name) === update.slot)
          this.bySlotName.delete(member.name);
        member.name = update.name;
        this.bySlotName.set(update.name, update.slot);
      }
      if (update.view !== undefined) member.view = update.view;
      if (update.state !== undefined) member.state = update.state;
      if (update.resources !== undefined) member.resources = update.resources;
    }
    this.run++;
    this.order = candidates;
    for (const slot of candidates) this.slots[slot]!.candidateOf = this.run;
  }

  /** The candidates' views in order. */
  views(): ClusterMemberView[] {
    const views = new Array<ClusterMemberView>(this.order.length);
    for (let index = 0; index < this.order.length; index++)
      views[index] = this.slots[this.order[index]!]!.view;
    return views;
  }

  /** The candidate of this run named `name`, if it is one. */
  candidate(name: string): MirroredMember | undefined {
    const slot = this.bySlotName.get(name);
    const member = slot === undefined ? undefined : this.slots[slot];
    return member !== undefined && member.candidateOf === this.run && member.name === name
      ? member
      : undefined;
  }

  stateAt(index: number): ClusterMemberStateView {
    return this.slots[this.order[index]!]?.state ?? EMPTY_STATE;
  }
}
