/**
 * The engine's warnings: the registry (warning-registry.ts) refreshed from
 * the members each time it is read, plus the scriptlet failures the engine
 * reports as they happen.
 */
import type { Warning } from "@berth/api-types";
import type { Clock } from "../base/clock.js";
import {
  DERIVED_WARNING_TYPES,
  memberConditions,
  type ObservedMember,
  WARNING_TYPES,
} from "./warning-conditions.js";
import { WarningRegistry } from "./warning-registry.js";

export class Warnings {
  private readonly registry: WarningRegistry;
  /** When each member was first seen evacuated (a record holds no evacuation time). */
  private readonly evacuatedSince = new Map<string, Date>();

  /**
   * `evacuatedWarningAfterMs` is read at each refresh, so a change of
   * `cluster.evacuation_warning_threshold` applies at once.
   */
  constructor(
    private readonly clock: Clock,
    private readonly members: () => ObservedMember[],
    private readonly evacuatedWarningAfterMs: () => number,
  ) {
    this.registry = new WarningRegistry(clock);
  }

  /** Brings the derived warnings up to date with the members as this server sees them now. */
  refresh(): void {
    const members = this.members();
    const now = this.clock.now();
    for (const member of members) {
      const name = member.record.name;
      if (!member.record.evacuated) this.evacuatedSince.delete(name);
      else if (!this.evacuatedSince.has(name)) this.evacuatedSince.set(name, now);
    }
    for (const name of this.evacuatedSince.keys()) {
      if (!members.some((member) => member.record.name === name)) this.evacuatedSince.delete(name);
    }
    this.registry.observe(
      DERIVED_WARNING_TYPES,
      memberConditions(members, now, this.evacuatedSince, this.evacuatedWarningAfterMs()),
    );
  }

  /**
   * A placement's scriptlet failed: to load (its source does not compile;
   * every placement fails until it is fixed) or while it ran. The caller
   * says which from where the failure came (the scriptlet host's outcome),
   * not from the message's wording.
   */
  scriptletFailed(message: string, stage: "load" | "run"): void {
    const atLoad = stage === "load";
    this.registry.raise({
      type: atLoad ? WARNING_TYPES.scriptletLoad : WARNING_TYPES.scriptletRun,
      location: "",
      project: "",
      entityUrl: "/1.0",
      message,
      severity: atLoad ? "high" : "moderate",
    });
  }

  /** Every warning, or (LXD's `?project=`) only those of `project`. */
  list(project?: string): Warning[] {
    this.refresh();
    const all = this.registry.list();
    return project === undefined ? all : all.filter((warning) => warning.project === project);
  }
  get(uuid: string): Warning {
    this.refresh();
    return this.registry.get(uuid);
  }
  setStatus(uuid: string, status: "new" | "acknowledged"): Warning {
    return this.registry.setStatus(uuid, status);
  }
  delete(uuid: string): void {
    this.registry.delete(uuid);
  }
}
