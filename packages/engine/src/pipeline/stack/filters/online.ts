/** Members that heartbeated within `cluster.offline_threshold`. */
import { type UsageCheck, usageFilter } from "../filter.js";
import { rejection } from "../rejection.js";

const OFFLINE = rejection("offline", "is offline", "are offline");

/** Reads nothing of the request: one check serves every placement. */
const ONLINE_CHECK: UsageCheck = {
  admits: (member, time) => member.isOnline(time.nowMs, time.offlineThresholdMs),
  reject: (member, time) => (member.isOnline(time.nowMs, time.offlineThresholdMs) ? undefined : OFFLINE),
};

export const onlineFilter = usageFilter({
  name: "online",
  appliesToTarget: false,
  reads: { request: [] },
  bind: () => ONLINE_CHECK,
});
