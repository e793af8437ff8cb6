/**
 * Berth's warnings (LXD's `warnings` extension), kept in memory: they are
 * derived state each server computes from its own view of the cluster, so
 * nothing is stored. A warning is identified by its type, member, project
 * and the entity it is about; raising it again updates its message and last-seen time. A
 * derived warning whose condition no longer holds becomes "resolved"; an
 * operator may acknowledge one or delete it (it returns, "new", when its
 * condition is seen again). A restart starts from an empty registry.
 */
import { randomUUID } from "node:crypto";
import type { Warning, WarningSeverity } from "@berth/api-types";
import type { Clock } from "../base/clock.js";
import { notFound } from "../base/errors.js";

export interface WarningCondition {
  type: string;
  /** The member concerned, "" for the cluster. */
  location: string;
  project: string;
  entityUrl: string;
  message: string;
  severity: WarningSeverity;
}

/** A warning is one per type, member, project and entity (a scriptlet's failed runs: one per project). */
const keyOf = (condition: Pick<WarningCondition, "type" | "location" | "project" | "entityUrl">) =>
  `${condition.type}\u0000${condition.location}\u0000${condition.project}\u0000${condition.entityUrl}`;

export class WarningRegistry {
  private readonly entries = new Map<string, Warning>();

  constructor(private readonly clock: Clock) {}

  /** An event (a scriptlet that failed): counted each time it happens. */
  raise(condition: WarningCondition): void {
    const now = this.clock.now().toISOString();
    const existing = this.entries.get(keyOf(condition));
    if (existing === undefined) {
      this.entries.set(keyOf(condition), {
        uuid: randomUUID(),
        location: condition.location,
        project: condition.project,
        type: condition.type,
        count: 1,
        first_seen_at: now,
        last_seen_at: now,
        last_message: condition.message,
        severity: condition.severity,
        status: "new",
        entity_url: condition.entityUrl,
      });
      return;
    }
    existing.count += 1;
    existing.last_seen_at = now;
    existing.last_message = condition.message;
    existing.severity = condition.severity;
    if (existing.status === "resolved") existing.status = "new";
  }

  /**
   * The conditions of the derived `types` that hold now: each is raised if
   * it is new or had been resolved (counted once per occurrence, however
   * often it is observed), refreshed otherwise; warnings of those types not
   * among them are resolved.
   */
  observe(types: readonly string[], holding: readonly WarningCondition[]): void {
    const now = this.clock.now().toISOString();
    const seen = new Set<string>();
    for (const condition of holding) {
      const key = keyOf(condition);
      seen.add(key);
      const existing = this.entries.get(key);
      if (existing === undefined || existing.status === "resolved") this.raise(condition);
      else {
        existing.last_seen_at = now;
        existing.last_message = condition.message;
      }
    }
    for (const [key, warning] of this.entries) {
      if (types.includes(warning.type) && !seen.has(key)) warning.status = "resolved";
    }
  }

  list(): Warning[] {
    return [...this.entries.values()].map((warning) => ({ ...warning }));
  }

  get(uuid: string): Warning {
    return { ...this.find(uuid) };
  }

  /** `lxc warning ack` ("acknowledged"), or back to "new". */
  setStatus(uuid: string, status: "new" | "acknowledged"): Warning {
    const warning = this.find(uuid);
    warning.status = status;
    return { ...warning };
  }

  delete(uuid: string): void {
    const warning = this.find(uuid);
    this.entries.delete(
      keyOf({
        type: warning.type,
        location: warning.location,
        project: warning.project,
        entityUrl: warning.entity_url,
      }),
    );
  }

  private find(uuid: string): Warning {
    for (const warning of this.entries.values()) if (warning.uuid === uuid) return warning;
    throw notFound("Warning not found");
  }
}
