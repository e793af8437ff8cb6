/**
 * LXD's `scheduler.instance`: `manual` members take only instances targeted
 * at them; `group` members only those targeted at them or one of their
 * groups.
 */
import { staticFilter } from "../filter.js";
import { rejection } from "../rejection.js";

export const schedulerFilter = staticFilter({
  name: "scheduler.instance",
  reads: { request: ["target"], member: ["config", "groups"] },
  reject: (member, request) => {
    // A member named directly takes the instance whatever its mode (LXD: `manual` means "only when targeted").
    if (request.target?.kind === "member") return undefined;
    const mode = member.config["scheduler.instance"] ?? "all";
    if (mode === "manual") {
      return rejection("scheduler-manual", "has scheduler.instance=manual", "have scheduler.instance=manual");
    }
    const group = request.target?.kind === "group" ? request.target.name : null;
    if (mode === "group" && (group === null || !member.groups.includes(group))) {
      return rejection(
        "scheduler-group",
        "takes instances only through one of its groups (scheduler.instance=group)",
        "take instances only through one of their groups (scheduler.instance=group)",
      );
    }
    return undefined;
  },
});
