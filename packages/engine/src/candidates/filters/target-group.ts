/** `?target=@group`: only members of that cluster group. */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

export const targetGroupFilter = staticFilter({
  name: "target group",
  reads: { request: ["target"], member: ["groups"] },
  reject: (member, request) => {
    if (request.target?.kind !== "group") return undefined;
    const group = request.target.name;
    return member.groups.includes(group)
      ? undefined
      : rejection(`group:${group}`, `is not in group "${group}"`, `are not in group "${group}"`);
  },
});
