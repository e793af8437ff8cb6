/** Project `restricted.cluster.groups`: applied whenever non-empty, as LXD does. */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

export const projectGroupsFilter = staticFilter({
  name: "restricted.cluster.groups",
  reads: { request: ["allowedGroups", "projectName"], member: ["groups"] },
  reject: (member, request) =>
    request.allowedGroups.length === 0 || request.allowedGroups.some((group) => member.groups.includes(group))
      ? undefined
      : rejection(
          "project-groups",
          `is outside the groups project "${request.projectName}" may use`,
          `are outside the groups project "${request.projectName}" may use`,
          false,
          // LXD CheckTarget's words (403).
          ({ member: name }) => ({
            kind: "forbidden",
            message: `Project isn't allowed to use this cluster member: "${name}"`,
          }),
        ),
});
