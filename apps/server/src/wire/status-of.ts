import type { EngineErrorKind } from "@berth/engine";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The HTTP status of each engine error kind: the one place the
 * engine's vocabulary meets HTTP. Scriptlet rejections are 400 (the
 * operator's policy refused the request, which is not a server bug); no
 * capacity is 507, LXD's answer when no member can take an instance; a
 * stale ETag is 412, as LXD/Incus answer a failed `If-Match`; a database
 * past its bound (a lock held elsewhere, a lost connection) is 503 with
 * `Retry-After`, nothing written.
 */
export function httpStatusOf(kind: EngineErrorKind): ContentfulStatusCode {
  switch (kind) {
    case "not_found":
      return 404;
    case "conflict":
      return 409;
    case "stale":
      return 412;
    case "insufficient_capacity":
      return 507;
    case "forbidden":
      return 403;
    case "invalid":
      return 400;
    case "scriptlet":
      return 400;
    case "unavailable":
      return 503;
    case "internal":
      return 500;
  }
}
