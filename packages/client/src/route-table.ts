/**
 * The shape of berthd's route table as the client knows it
 * (routes.generated.ts, written from the server's own routes), and the
 * filling of a path pattern's `:params`.
 */
import type { ApiSchemaName } from "@berth/api-types";

/** The HTTP methods berthd's routes use. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One berthd operation as the generated route table describes it. */
export interface RouteEntry {
  /** The HTTP method. */
  method: HttpMethod;
  /** Hono/Express pattern, e.g. `/1.0/instances/:name`. */
  path: string;
  /** The query parameters the route honours. */
  query: readonly string[];
  /** The api-types schema of the request body, or null for none. */
  body: ApiSchemaName | null;
}

/** Every operation by its OpenAPI operationId (the shape of the generated `routes`). */
export type RouteTable = Record<string, RouteEntry>;

/** The `:name` segments of a path pattern: `/a/:x/b/:y` -> `"x" | "y"`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The pattern with each `:name` replaced by its (URI-encoded) value. */
export function fillPath(pattern: string, params: Readonly<Record<string, string>> = {}): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`Missing path parameter "${name}" for ${pattern}`);
    return encodeURIComponent(value);
  });
}

/** A query parameter's value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** `path?a=1&b=x`, leaving out undefined values. */
export function withQuery(path: string, query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === "" ? path : `${path}${path.includes("?") ? "&" : "?"}${text}`;
}
