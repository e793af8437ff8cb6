/**
 * `engine.members`: cluster members as callers see them, LXD's
 * `/1.0/cluster/members` (the member, its state, resources, inventories,
 * evacuation and restore). Records and model edits are `Members`'
 * (members.ts); moving instances off and back is `Relocation`'s.
 */

import type { EngineEvents } from "../runtime/events.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { cloneJson } from "../store/clone.js";
import type { InventoryView, MemberInfo, MemberInput, Members, MemberUpdate } from "./members.js";
import { emitEvacuation, emitMoves } from "./move-events.js";
import type { EvacuationOutcome, MovedInstance, Relocation } from "./relocation.js";
import { tracked } from "./tracked.js";

/**
 * Cluster members (`engine.members`): records, heartbeats and state, resources and the inventories
 * derived from them, evacuation and restore.
 */
export class ClusterMembers {
  constructor(
    private readonly runtime: EngineRuntime,
    private readonly members: Members,
    private readonly relocation: Relocation,
    private readonly events: EngineEvents,
    /** Members the engine's tick reported offline; a heartbeat takes one off. */
    private readonly knownOffline: Set<string>,
  ) {}

  /**
   * Every member as the model sees it (call `engine.sync()` first when several engines share the
   * store).
   */
  list(): MemberInfo[] {
    return this.members.list();
  }
  /**
   * The members' architectures, sorted, as the model sees them: without each member's info (a copy
   * of its record), which GET /1.0 paid for all 10,000 members at every request.
   */
  architectures(): string[] {
    return [...new Set(this.runtime.model.allMembers().map((member) => member.record.architecture))].sort();
  }
  /** One member as the model sees it; not_found when absent. */
  get(name: string): MemberInfo {
    return this.members.info(name);
  }
  /**
   * Adds a member; its standard inventories are derived from its resources unless given
   * explicitly.
   */
  create(input: MemberInput): Promise<MemberInfo> {
    return this.members.create(input);
  }
  /**
   * LXD's PUT of a member: the editable fields replaced; with `expectedGeneration`, only while the
   * member is at it.
   */
  update(name: string, update: MemberUpdate, expectedGeneration?: number): Promise<MemberInfo> {
    return this.members.update(name, update, expectedGeneration);
  }
  /** LXD's PATCH of a member: `config` merged key by key into the current one, written over the version read. */
  patch(name: string, changes: MemberUpdate): Promise<MemberInfo> {
    return this.members.patch(name, changes);
  }
  /** Renames a member that hosts nothing (conflict otherwise). */
  rename(name: string, newName: string): Promise<MemberInfo> {
    return this.members.rename(name, newName);
  }
  /** Removes a member; conflict while it hosts, mirrors or holds allocations of any instance. */
  delete(name: string): Promise<void> {
    return this.members.delete(name);
  }
  /** `PUT .../state`: records a heartbeat (and the reported state). */
  heartbeat(name: string, state?: Record<string, unknown>): Promise<MemberInfo> {
    const result = this.members.heartbeat(name, state);
    this.knownOffline.delete(name);
    return result;
  }
  /** The state the member last reported (`GET .../state`). */
  state(name: string): Record<string, unknown> {
    return cloneJson(this.members.info(name).record.state ?? {});
  }
  /** The resources the member last reported (`GET .../resources`). */
  resources(name: string): Record<string, unknown> {
    return cloneJson(this.members.info(name).record.resources ?? {});
  }
  /** Records reported resources and re-derives the standard inventories from them. */
  setResources(name: string, resources: Record<string, unknown>): Promise<MemberInfo> {
    return this.members.setResources(name, resources);
  }
  /** Inventories with generation and usage (`used`, `forthcoming`, `capacity`). */
  inventories(name: string): {
    /** The member's generation (pass it back to write its inventories). */
    generation: number;
    /** Resource class -> inventory with usage. */
    inventories: Record<string, InventoryView>;
  } {
    return this.members.inventories(name);
  }
  /**
   * Changes the member's inventories (`null` removes a class; `replaceAll` replaces them all) at
   * the generation the caller read; conflict when it moved or a removed class is in use.
   */
  setInventories(
    name: string,
    inventories: Parameters<Members["setInventories"]>[1],
    expectedGeneration: number,
    replaceAll = false,
  ) {
    return this.members.setInventories(name, inventories, expectedGeneration, replaceAll);
  }
  /**
   * Removes one inventory at the generation the caller read; conflict while the class is in use.
   */
  deleteInventory(name: string, resourceClass: string, expectedGeneration: number) {
    return this.members.setInventories(name, { [resourceClass]: null }, expectedGeneration);
  }
  /**
   * Moves every instance off the member (scriptlet included, reason `evacuation`) and marks it
   * evacuated, in one claim: all move or nothing changes.
   */
  async evacuate(name: string): Promise<EvacuationOutcome> {
    const outcome = await tracked(
      this.runtime.metrics,
      "evacuation",
      () => this.relocation.evacuate(name, "evacuation"),
      (outcome) => outcome.moved.length,
    );
    emitEvacuation(this.events, outcome, "evacuation");
    return outcome;
  }
  /**
   * Brings the instances evacuated from the member back and lifts its evacuation, in one claim;
   * refused while the member is offline.
   */
  async restore(name: string): Promise<{
    /** The restored member's name. */
    member: string;
    /** The instances that came back to it. */
    moved: MovedInstance[];
  }> {
    const outcome = await this.relocation.restore(name);
    emitMoves(this.events, outcome.moved, "restore");
    this.events.lifecycle(() => ({
      action: "cluster-member-restored",
      member: name,
      context: { moved: outcome.moved.length },
    }));
    return outcome;
  }
}
