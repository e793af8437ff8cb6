/**
 * The engine's warnings: the registry (warning-registry.ts) refreshed from
 * the members each time it is read, plus the scriptlet failures the engine
 * reports as they happen.
 *
 * Projects, as LXD files them: a warning about a member or the server is
 * the cluster's (project ""). The placement scriptlet is one per server
 * (`instances.placement.scriptlet` is server config, as in LXD), so a
 * scriptlet that fails to load is the cluster's too: it fails every
 * placement in every project. A run fails for one placement, in the project
 * it was for: that failure is filed under the project (one warning per
 * project, counted), so `lxc warning list --project P` shows P's failed
 * runs and `?all-projects=true` shows them all.
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
    /** The pools DISK_GB is derived from (services/members.ts `rootPools`), to judge explicit DISK_GB. */
    private readonly rootPools: () => Promise<readonly string[]> = async () => [],
  ) {
    this.registry = new WarningRegistry(clock);
  }

  /** Brings the derived warnings up to date with the members as this server sees them now. */
  async refresh(): Promise<void> {
    const rootPools = await this.rootPools();
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
      memberConditions(members, now, this.evacuatedSince, this.evacuatedWarningAfterMs(), rootPools),
    );
  }

  /**
   * A placement's scriptlet failed: to load (its source does not compile;
   * every placement fails until it is fixed) or while it ran for a
   * placement in `project`. The caller says which from where the failure
   * came (the scriptlet host's outcome), not from the message's wording.
   * A load failure is the cluster's (project ""), a run failure the
   * project's (see the file's comment).
   */
  scriptletFailed(message: string, stage: "load" | "run", project: string): void {
    const atLoad = stage === "load";
    this.registry.raise({
      type: atLoad ? WARNING_TYPES.scriptletLoad : WARNING_TYPES.scriptletRun,
      location: "",
      project: atLoad ? "" : project,
      entityUrl: "/1.0",
      message,
      severity: atLoad ? "high" : "moderate",
    });
  }

  /** Every warning, or (LXD's `?project=`) only those of `project`. */
  async list(project?: string): Promise<Warning[]> {
    await this.refresh();
    const all = this.registry.list();
    return project === undefined ? all : all.filter((warning) => warning.project === project);
  }
  async get(uuid: string): Promise<Warning> {
    await this.refresh();
    return this.registry.get(uuid);
  }
  setStatus(uuid: string, status: "new" | "acknowledged"): Warning {
    return this.registry.setStatus(uuid, status);
  }
  delete(uuid: string): void {
    this.registry.delete(uuid);
  }
}
