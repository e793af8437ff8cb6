/**
 * How a Placement route is declared: method, path (relative to the mount),
 * the microversion it appeared in (older requests get 404, as Placement
 * masks it), the policy rule it enforces, and a handler that answers with a
 * plain `PlacementReply`. `placement-app.ts` does the rest (version
 * negotiation, auth, 404/405, error rendering, the common headers).
 */
import type { Engine } from "@berth/engine";
import type { Microversion } from "./microversion.js";

export type PlacementMethod = "GET" | "PUT" | "POST" | "DELETE" | "PATCH";

export interface PlacementReply {
  status?: number;
  /** JSON body; absent for 204 and bodiless 201s. */
  body?: unknown;
  /**
   * The JSON body already written, as text or its UTF-8 bytes, instead of
   * `body`: the large answers (allocation candidates) write it directly
   * rather than build objects only to serialise them.
   */
  json?: string | Uint8Array;
  /** Path under the Placement root; sent as an absolute URL with the mount prefix. */
  location?: string;
  /**
   * Placement sends `last-modified` and `cache-control: no-cache` from 1.15
   * on GETs and on some writes; the handler says what was last modified.
   */
  lastModified?: Date;
}

export interface PlacementRequest {
  readonly version: Microversion;
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, every value (Placement refuses some repeated keys). */
  readonly query: URLSearchParams;
  readonly engine: Engine;
  /** The JSON body (content-type and parse checked; see `request-body.ts`). */
  json(): Promise<unknown>;
  /** True when the request carries a body (Content-Length > 0 or chunked). */
  readonly hasBody: boolean;
}

export interface PlacementRoute {
  readonly method: PlacementMethod;
  readonly path: string;
  /** Minor microversion the route appeared in (default 0). */
  readonly since?: number;
  /** What an older request gets: 404 (default) or, where Placement answers so, 405. */
  readonly maskedStatus?: 404 | 405;
  /** Placement's policy rule name, for the 403 text. Every rule is admin-only (Placement's defaults). */
  readonly policy: string;
  handle(request: PlacementRequest): Promise<PlacementReply>;
}
