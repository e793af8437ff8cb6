/**
 * LXD's event stream (`GET /1.0/events`) on top of the engine's: every
 * engine event (lifecycle, log line) and every operation change becomes an
 * LXD `api.Event` (`{"type","timestamp","metadata","location","project"}`)
 * for the websockets that asked for its type and project. The hub follows
 * the engine and the operations only while a websocket is open, so nothing
 * is translated (or even built by the engine) otherwise.
 */
import type { EngineEvent, EngineEvents } from "@berth/engine";
import type { Operations, OperationWire } from "../operations/operations.js";
import { resourceUrl } from "../wire/urls.js";

export const EVENT_TYPES = ["lifecycle", "logging", "operation"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** LXD `api.Event`. */
export interface LxdEvent {
  type: EventType;
  timestamp: string;
  metadata: Record<string, unknown>;
  location: string;
  project: string;
}

export interface EventSubscription {
  types: ReadonlySet<EventType>;
  /** Only this project's events (and cluster-wide ones, which have no project); undefined: all projects. */
  project: string | undefined;
  send(event: LxdEvent): void;
}

export class EventHub {
  private readonly subscribers = new Set<EventSubscription>();
  private detach: (() => void) | undefined;

  constructor(
    private readonly engineEvents: EngineEvents,
    private readonly operations: Operations,
    /** The `location` every event carries (the server's name). */
    private readonly location: string,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  subscribe(subscription: EventSubscription): () => void {
    this.subscribers.add(subscription);
    if (this.detach === undefined) {
      const offEngine = this.engineEvents.subscribe((event) => this.publish(this.fromEngine(event)));
      const offOperations = this.operations.subscribe((operation, project) =>
        this.publish(this.fromOperation(operation, project)),
      );
      this.detach = () => {
        offEngine();
        offOperations();
      };
    }
    return () => {
      this.subscribers.delete(subscription);
      if (this.subscribers.size === 0 && this.detach !== undefined) {
        this.detach();
        this.detach = undefined;
      }
    };
  }

  private publish(event: LxdEvent): void {
    for (const subscriber of this.subscribers) {
      if (!subscriber.types.has(event.type)) continue;
      // Cluster-wide events (members, log lines outside any project) carry no project: everyone gets them.
      if (event.project !== "" && subscriber.project !== undefined && subscriber.project !== event.project)
        continue;
      subscriber.send(event);
    }
  }

  private fromEngine(event: EngineEvent): LxdEvent {
    const timestamp = new Date().toISOString();
    if (event.type === "logging") {
      const context: Record<string, string> = {};
      for (const [key, value] of Object.entries(event.context))
        if (value !== undefined) context[key] = typeof value === "string" ? value : JSON.stringify(value);
      return {
        type: "logging",
        timestamp,
        metadata: { message: event.message, level: event.level, context },
        location: this.location,
        project: typeof event.context.project === "string" ? event.context.project : "",
      };
    }
    const project = event.project ?? "";
    const source =
      event.instance !== undefined
        ? resourceUrl("/1.0/instances", event.instance, project)
        : resourceUrl("/1.0/cluster/members", event.member ?? "");
    return {
      type: "lifecycle",
      timestamp,
      metadata: { action: event.action, source, context: event.context },
      location: this.location,
      project,
    };
  }

  private fromOperation(operation: OperationWire, project: string): LxdEvent {
    return {
      type: "operation",
      timestamp: operation.updated_at,
      metadata: { ...operation },
      location: this.location,
      project,
    };
  }
}
