/** Members that heartbeated within `cluster.offline_threshold`. */
import { type UsageCheck, usageFilter } from "../filter.js";
import { rejection } from "../rejection.js";

/** LXD/Incus answer a target that stopped heartbeating with 400 and these words. */
const OFFLINE = rejection("offline", "is offline", "are offline", false, () => ({
  kind: "invalid",
  message: "Target cluster member is offline",
}));

/** Reads nothing of the request: one check serves every placement. */
const ONLINE_CHECK: UsageCheck = {
  admits: (member, time) => member.isOnline(time.nowMs, time.offlineThresholdMs),
  reject: (member, time) => (member.isOnline(time.nowMs, time.offlineThresholdMs) ? undefined : OFFLINE),
  // Online until its heartbeat is older than the threshold; offline until it heartbeats (a member change).
  steadyUntil: (member, time) =>
    member.isOnline(time.nowMs, time.offlineThresholdMs)
      ? member.heartbeatMs! + time.offlineThresholdMs
      : Number.POSITIVE_INFINITY,
};

export const onlineFilter = usageFilter({
  name: "online",
  reads: { request: [] },
  bind: () => ONLINE_CHECK,
});
