/** Placement's required (`trait:X=required`) and forbidden traits. */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

export const traitsFilter = staticFilter({
  name: "traits",
  reads: { request: ["requiredTraits", "forbiddenTraits"], member: ["traits"] },
  reject: (member, request) => {
    for (const trait of request.requiredTraits) {
      if (!member.traits.includes(trait))
        return rejection(`lack:${trait}`, `lacks ${trait}`, `lack ${trait}`);
    }
    for (const trait of request.forbiddenTraits) {
      if (member.traits.includes(trait)) {
        return rejection(
          `forbidden:${trait}`,
          `has forbidden trait ${trait}`,
          `have forbidden trait ${trait}`,
        );
      }
    }
    return undefined;
  },
});
