import type { ApiSchemaName, apiSchemas } from "@berth/api-types";
import type { Precondition } from "@berth/engine";
import type { ParamKeys } from "hono/types";
import type { Logger } from "pino";
import type { z } from "zod";
import type { Principal } from "../auth/principal.js";
import type { ServerServices } from "./services.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route:
 * - `admin`: admin tokens and the Unix socket only (server config, cluster writes, metrics);
 * - `any`: every authenticated caller (reading cluster-wide catalogs such as members or flavors);
 * - `project`: callers allowed in the request's project (from `?project=` or a path parameter).
 */
export type Access = "admin" | "any" | "project";

/** The standard query parameters of berthd's API; a route lists the ones it honours (for validation and OpenAPI). */
export type QueryName =
  | "recursion"
  | "project"
  | "target"
  | "dry_run"
  | "filter"
  | "timeout"
  | "all-projects";

/** The path parameters of a Hono pattern, typed: `/1.0/instances/:name` -> `{ name: string }`. */
export type PathParams<Path extends string> = string extends Path
  ? Record<string, string>
  : { [K in ParamKeys<Path>]: string };

export interface RouteInput<Body, Path extends string = string> {
  services: ServerServices;
  params: PathParams<Path>;
  body: Body;
  project: string;
  recursion: 0 | 1 | 2;
  target: string | undefined;
  dryRun: boolean;
  principal: Principal;
  /** One query parameter the route honours (listed in its `query`), raw. */
  query(name: QueryName): string | undefined;
  /** One request header (lower-case name). */
  header(name: string): string | undefined;
  /** The version the caller last read (`If-Match`), for routes with `etag: true`. */
  precondition: Precondition;
  log: Logger;
  /**
   * Aborts when the client goes away before its answer is written (a
   * placement's scriptlet run then stops). Made when first read (a getter,
   * http/client-signal.ts): pass it on without reading it where no
   * scriptlet may run (`engineOptions` in routes/instances.ts).
   */
  readonly signal: AbortSignal;
}

export interface RouteReply {
  metadata: unknown;
  /** 200 by default; 201 (with `location`) when the request created something. */
  status?: 200 | 201;
  location?: string;
  /** The record's version (engine `recordEtag`), sent as the `ETag` header (LXD: quoted). */
  etag?: string;
}

export interface RouteSpec<Body = unknown, Path extends string = string> {
  method: HttpMethod;
  /** Hono pattern, e.g. `/1.0/instances/:name`; its `:params` reach the handler typed. */
  path: Path;
  operationId: string;
  summary: string;
  tag: string;
  access: Access;
  /** For `project` access when the project is the resource itself (`/1.0/projects/:name`). */
  projectParam?: string;
  query?: readonly QueryName[];
  /** Name of the request body schema in api-types' `apiSchemas` (also its OpenAPI component name). */
  body?: ApiSchemaName;
  /** Whether the body may be omitted (e.g. POST .../commit with no options). */
  bodyOptional?: boolean;
  /** Name of the schema of the envelope's `metadata`, for the OpenAPI document. */
  response?: ApiSchemaName;
  /** The route answers 201 with a Location header (documented as such in OpenAPI). */
  creates?: boolean;
  /** Error statuses this route can answer, besides 400/401/403 which every route can. */
  errors?: readonly number[];
  /**
   * The handler reads the engine's in-memory model synchronously (members,
   * inventories, groups): the engine first catches up with what other
   * processes sharing the database committed (`engine.sync()`, one cheap read).
   */
  readsModel?: boolean;
  /**
   * The record has an LXD ETag: GET answers it in the `ETag` header, PUT
   * and PATCH honour `If-Match` (412 when the record changed since).
   */
  etag?: boolean;
  /**
   * LXD answers this request with an operation (`202`, `type: "async"`):
   * what the operation says it does, and the URLs it touches. Callers that
   * speak LXD's operation protocol get one (see `asyncAnswer`), others the
   * sync answer.
   */
  operation?: OperationSpec<Body, Path>;
  handle(input: RouteInput<Body, Path>): Promise<RouteReply> | RouteReply;
}

export interface OperationSpec<Body = unknown, Path extends string = string> {
  /** LXD's description, e.g. "Creating instance" (or one that depends on the request). */
  description: string | ((input: RouteInput<Body, Path>) => string);
  /**
   * What LXD puts before the error of a failed operation of this kind: a
   * failed create reads `Failed instance creation: <why>` (the seed's
   * `lxc init ... foo` output).
   */
  failurePrefix?: string;
  /** The operation's `resources`, e.g. `{ instances: ["/1.0/instances/c1"] }`. */
  resources(input: RouteInput<Body, Path>): Record<string, string[]>;
}

/** Keeps the body and path-parameter types a handler sees tied to `body` and `path`. */
export function defineRoute<N extends ApiSchemaName, P extends string>(
  spec: Omit<RouteSpec<z.output<(typeof apiSchemas)[N]>, P>, "body"> & { body: N },
): RouteSpec;
export function defineRoute<P extends string>(spec: Omit<RouteSpec<undefined, P>, "body">): RouteSpec;
export function defineRoute(spec: RouteSpec<never, string>): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** Marks routes whose handlers read the engine's model synchronously (see `RouteSpec.readsModel`). */
export function readingTheModel(routes: RouteSpec[]): RouteSpec[] {
  return routes.map((route) => ({ ...route, readsModel: true }));
}
