/** Members under maintenance (`cluster evacuate`) take nothing new. */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

export const evacuatedFilter = staticFilter({
  name: "evacuated",
  appliesToTarget: false,
  reads: { request: [], member: ["evacuated"] },
  reject: (member) =>
    member.evacuated ? rejection("evacuated", "is evacuated", "are evacuated") : undefined,
});
