/** Members under maintenance (`cluster evacuate`) take nothing new. */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

/**
 * LXD answers a create on an evacuated member with 403 "Cluster member is
 * evacuated", and a move onto one with "The destination cluster member is
 * evacuated".
 */
const EVACUATED = rejection("evacuated", "is evacuated", "are evacuated", false, ({ moving }) =>
  moving
    ? { kind: "invalid", message: "The destination cluster member is evacuated" }
    : { kind: "forbidden", message: "Cluster member is evacuated" },
);

export const evacuatedFilter = staticFilter({
  name: "evacuated",
  reads: { request: [], member: ["evacuated"] },
  reject: (member) => (member.evacuated ? EVACUATED : undefined),
});
