import type { ApiInput, ApiSchemaName } from "@berth/api-types";
import { decodeEnvelope } from "./envelope.js";
import { type FetchTransportOptions, fetchTransport } from "./fetch-transport.js";
import { PREFER_OPERATIONS, waitForOperation } from "./operation-wait.js";
import { fillPath, type PathParamNames, type QueryValue, withQuery } from "./route-table.js";
import { routes } from "./routes.generated.js";
import type { Transport } from "./transport.js";

/** Every berthd operation, by its OpenAPI operationId. */
export type OperationId = keyof typeof routes;
type RouteOf<Op extends OperationId> = (typeof routes)[Op];

/**
 * The path parameters an operation's path pattern names (`:name`, `:class`, ...), each a string.
 */
export type ParamsOf<Op extends OperationId> = { [K in PathParamNames<RouteOf<Op>["path"]>]: string };
/** The query parameters an operation's route honours, all optional. */
export type QueryOf<Op extends OperationId> = { [K in RouteOf<Op>["query"][number]]?: QueryValue };
/** The request body as a caller writes it (fields with server-side defaults may be left out). */
export type BodyOf<Op extends OperationId> = RouteOf<Op>["body"] extends ApiSchemaName
  ? ApiInput<RouteOf<Op>["body"]>
  : undefined;

/**
 * What `BerthClient.call` sends: path parameters (required when the path has any), query, body and
 * extra headers.
 */
export type CallOptions<Op extends OperationId> = (PathParamNames<RouteOf<Op>["path"]> extends never
  ? {
      /** The path has no parameters: nothing (or `{}`) to give. */
      params?: Record<string, never>;
    }
  : {
      /** Values of the path's `{name}` parameters, URL-encoded by the client. */
      params: ParamsOf<Op>;
    }) & {
  /** The query string's parameters, as the route declares them; absent: none sent. */
  query?: QueryOf<Op>;
  /** The JSON body, for routes that take one. */
  body?: BodyOf<Op>;
  /** Extra request headers (e.g. `If-Match`), added to the transport's own. */
  headers?: Record<string, string>;
};

/** An answer: the envelope's metadata plus the HTTP details a caller may need. */
export interface ApiResult<T> {
  /**
   * The HTTP status of the final answer (after waiting on an operation, the status the synchronous
   * request would have had).
   */
  status: number;
  /** The LXD envelope's `metadata`: the record or result itself. */
  metadata: T;
  /** The `Location` header: where a created record now lives. */
  location: string | undefined;
  /** The record's version (`ETag`, quoted), on reads of catalog records; send it back as `ifMatch`. */
  etag: string | undefined;
}

/**
 * How a client reaches berthd: a transport of your own, or the Fetch API transport's options
 * (`url`, `token`); `project` is the default project of project-scoped calls.
 */
export type BerthClientOptions =
  | {
      /** How requests reach berthd (e.g. an in-process transport for tests). */
      transport: Transport;
      /** The project of project-scoped calls that name none; absent: none sent, so berthd uses `default`. */
      project?: string;
    }
  | (FetchTransportOptions & {
      /** The project of project-scoped calls that name none; absent: none sent, so berthd uses `default`. */
      project?: string;
    });

/**
 * Low-level berthd client: one method per HTTP exchange, addressed by
 * operationId (method and path come from the route table generated from
 * the server), answers unwrapped from the LXD envelope, failures thrown as
 * `BerthApiError`. It asks for LXD's operations (`Prefer: respond-async`)
 * and waits on each one, so an asynchronous answer reads like the
 * synchronous one. The typed resource methods live in `typed-client.ts`.
 */
export class BerthClient {
  /**
   * The function every request goes through (Fetch API, Unix socket, TLS, or a test's recorder).
   */
  readonly transport: Transport;
  /** Project used by project-scoped calls unless a call names another. */
  readonly project: string | undefined;

  constructor(options: BerthClientOptions) {
    this.transport = "transport" in options ? options.transport : fetchTransport(options);
    this.project = options.project;
  }

  /**
   * Sends one operation and returns the envelope's metadata with status,
   * Location and ETag. The metadata is `unknown` here; the typed methods
   * (`BerthApi`) say what each operation answers.
   */
  async call<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<ApiResult<unknown>> {
    const route: { method: string; path: string } = routes[operation];
    const path = withQuery(
      fillPath(route.path, options.params as Record<string, string> | undefined),
      options.query as Record<string, QueryValue> | undefined,
    );
    const response = await this.transport({
      method: route.method,
      path,
      headers: { accept: "application/json", ...PREFER_OPERATIONS, ...options.headers },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    if (response.status === 202) {
      // An operation: its end is the answer the synchronous request would have given.
      const project = (options.query as { project?: unknown } | undefined)?.project;
      return waitForOperation(
        this.transport,
        response.body,
        typeof project === "string" ? project : undefined,
      );
    }
    return {
      status: response.status,
      metadata: decodeEnvelope(response.status, response.body),
      location: response.header("location"),
      etag: response.header("etag"),
    };
  }

  /** `call`, answering the metadata only. */
  async request<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<unknown> {
    return (await this.call(operation, options)).metadata;
  }

  /** An operation that answers without the envelope (metrics, OpenAPI); errors still come enveloped. */
  async raw(operation: "getMetrics" | "getOpenApi", accept: string): Promise<string> {
    const response = await this.transport({
      method: "GET",
      path: routes[operation].path,
      headers: { accept },
    });
    if (response.status !== 200) decodeEnvelope(response.status, response.body);
    return response.body;
  }
}
