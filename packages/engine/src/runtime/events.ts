/**
 * The engine's event stream: what it decided and did (placements, moves,
 * evacuations, reservations, deletions) and what it logged (scriptlet
 * `log_*` lines included), as they happen. Apps translate it for their
 * protocol (berthd: LXD's `/1.0/events` websocket); the engine knows no
 * transport. Nothing is built or delivered while nobody listens, so
 * placements pay one property read for it.
 */
import type { Logger, LogLevel } from "../base/logger.js";

/**
 * What happened to an instance, a member or a reservation. Instance
 * actions carry `project` and `instance`; member actions carry `member`.
 */
export type EngineLifecycleAction =
  /** Placed and claimed (`decidedBy`: target, scriptlet or default policy). */
  | "instance-created"
  /** A reservation (Ganeti forthcoming instance) was placed and claimed. */
  | "instance-reserved"
  /** A reservation became an instance. */
  | "instance-reservation-committed"
  /** Moved to another member: `reason` is move, evacuation, relocation (healing), restore or rebalance. */
  | "instance-moved"
  | "instance-renamed"
  | "instance-updated"
  | "instance-deleted"
  | "cluster-member-evacuated"
  | "cluster-member-restored"
  /** An automatic rebalancing run relieved this (busiest) member: `moved`, `stayed`, scores. */
  | "cluster-rebalanced";

/** Something the engine did to an instance, a reservation or a member. */
export interface EngineLifecycleEvent {
  /** Always `lifecycle`. */
  type: "lifecycle";
  /** What happened. */
  action: EngineLifecycleAction;
  /** The instance's project (instance actions). */
  project?: string;
  /** The instance's name (instance actions). */
  instance?: string;
  /** The member (member actions). */
  member?: string;
  /** Details: `location`, `from`/`to`, `reason`, `decided_by`, `old_name`, moved counts... */
  context: Record<string, unknown>;
}

/** A line the engine logged (scriptlet `log_*` lines included). */
export interface EngineLogEvent {
  /** Always `logging`. */
  type: "logging";
  /** Its level. */
  level: LogLevel;
  /** The line. */
  message: string;
  /** Its structured fields. */
  context: Record<string, unknown>;
}

/** Whatever `EngineEvents.subscribe` delivers. */
export type EngineEvent = EngineLifecycleEvent | EngineLogEvent;

/** Called with each event; a listener that throws never fails the operation. */
export type EngineEventListener = (event: EngineEvent) => void;

/**
 * The engine's event stream (`engine.events`): subscribe to receive lifecycle events and log lines
 * as they happen.
 */
export class EngineEvents {
  private readonly listeners = new Set<EngineEventListener>();

  /** Whether anyone listens: emitters check this before building an event. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Calls `listener` with every event from now on; the answer unsubscribes. */
  subscribe(listener: EngineEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Delivers to every listener; a throwing listener never breaks the operation that emitted. */
  emit(event: EngineEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own (the server drops a broken websocket on its side).
      }
    }
  }

  /** Emits a lifecycle event only when someone listens (`build` is not called otherwise). */
  lifecycle(build: () => Omit<EngineLifecycleEvent, "type">): void {
    if (this.listeners.size > 0) this.emit({ type: "lifecycle", ...build() });
  }

  /** `logger`, with each line also emitted as a logging event while someone listens. */
  teeLogger(logger: Logger): Logger {
    return {
      log: (level: LogLevel, message: string, fields: Record<string, unknown> = {}) => {
        logger.log(level, message, fields);
        if (this.listeners.size > 0) this.emit({ type: "logging", level, message, context: { ...fields } });
      },
    };
  }
}
