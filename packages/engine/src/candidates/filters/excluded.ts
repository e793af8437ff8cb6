/** Members the request excludes (a moved instance's current member). */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

export const excludedFilter = staticFilter({
  name: "excluded",
  reads: { request: ["excluded"], member: [] },
  reject: (member, request) =>
    request.excluded.has(member.name)
      ? rejection(
          "excluded",
          "is the instance's current member",
          "are the instance's current members",
          false,
          () => ({ kind: "invalid", message: "Requested target server is the same as current server" }),
        )
      : undefined,
});
