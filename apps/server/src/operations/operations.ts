/**
 * LXD's operations (`/1.0/operations`), as berthd keeps them: each
 * asynchronous request of an LXD client or of a caller that sends
 * `Prefer: respond-async` (`@berth/client`) (instance create, delete, update,
 * rename, move; member evacuate/restore; project rename; image delete)
 * gets an operation record. Berth's work is a database transaction, so
 * the operation has finished by the time the 202 answer leaves: the client
 * reads its final status from that answer (or from GET/wait), exactly as
 * it would read a finished LXD operation. Records live in this process's
 * memory (LXD's are per member too) and expire `retentionMs` after they
 * finished.
 */
import { randomUUID } from "node:crypto";

/** LXD's operation status codes (shared/api/status_code.go). */
export const OPERATION_STATUS = {
  Running: 103,
  Cancelled: 401,
  Success: 200,
  Failure: 400,
} as const;
export type OperationStatus = keyof typeof OPERATION_STATUS;

/** LXD `api.Operation`. */
export interface OperationWire {
  id: string;
  /** `task`; `token` for a pending certificate-add token (see trust/token-operations.ts). */
  class: "task" | "token";
  description: string;
  created_at: string;
  updated_at: string;
  status: OperationStatus;
  status_code: number;
  /** URLs of what it touched, by kind: `{"instances": ["/1.0/instances/c1"]}`. */
  resources: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  may_cancel: boolean;
  err: string;
  location: string;
}

interface StoredOperation {
  wire: OperationWire;
  project: string;
}

export type OperationListener = (operation: OperationWire, project: string) => void;

export const DEFAULT_OPERATION_RETENTION_MS = 60_000;

export class Operations {
  private readonly byId = new Map<string, StoredOperation>();
  private readonly listeners = new Set<OperationListener>();

  constructor(
    /** The name operations report as their `location` (the server's name). */
    readonly location: string,
    private readonly retentionMs = DEFAULT_OPERATION_RETENTION_MS,
  ) {}

  /** Calls `listener` on every change of every operation (the events websocket's `operation` type). */
  subscribe(listener: OperationListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Records a running operation; `finish` settles it. */
  start(
    project: string,
    description: string,
    resources: Record<string, string[]> | null,
    metadata: Record<string, unknown> | null = null,
  ): OperationWire {
    const now = new Date().toISOString();
    const wire: OperationWire = {
      id: randomUUID(),
      class: "task",
      description,
      created_at: now,
      updated_at: now,
      status: "Running",
      status_code: OPERATION_STATUS.Running,
      resources,
      metadata,
      may_cancel: false,
      err: "",
      location: this.location,
    };
    this.byId.set(wire.id, { wire, project });
    this.changed(wire, project);
    return wire;
  }

  /** Success, or Failure with the error text (what LXD's client prints as `Error: ...`). */
  finish(
    id: string,
    outcome: { error?: string; resources?: Record<string, string[]>; metadata?: Record<string, unknown> },
  ): OperationWire {
    const stored = this.byId.get(id);
    if (stored === undefined) throw new Error(`operation ${id} is not running`);
    const wire = stored.wire;
    const failed = outcome.error !== undefined;
    wire.status = failed ? "Failure" : "Success";
    wire.status_code = OPERATION_STATUS[wire.status];
    wire.err = outcome.error ?? "";
    if (outcome.resources !== undefined) wire.resources = outcome.resources;
    if (outcome.metadata !== undefined) wire.metadata = { ...wire.metadata, ...outcome.metadata };
    wire.updated_at = new Date().toISOString();
    this.changed(wire, stored.project);
    setTimeout(() => this.byId.delete(id), this.retentionMs).unref();
    return wire;
  }

  get(id: string): { wire: OperationWire; project: string } | undefined {
    return this.byId.get(id);
  }

  /** Operations of `project` (every project's when undefined), oldest first. */
  list(project: string | undefined): OperationWire[] {
    const out: OperationWire[] = [];
    for (const stored of this.byId.values())
      if (project === undefined || stored.project === project) out.push(stored.wire);
    return out;
  }

  private changed(wire: OperationWire, project: string): void {
    for (const listener of this.listeners) listener(wire, project);
  }
}

/** `/1.0/operations/ID` */
export function operationUrl(id: string): string {
  return `/1.0/operations/${id}`;
}
