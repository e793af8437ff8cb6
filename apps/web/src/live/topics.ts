/**
 * What can change under the console's feet. Every query key starts with
 * its topic, so "members changed" refetches exactly the views that show
 * members. Both live sources speak in topics: the poller marks all of
 * them stale on a timer; the events stream (issue #18) will mark the ones
 * an event names.
 */
export type Topic = "members" | "instances" | "config";

export const ALL_TOPICS: readonly Topic[] = ["members", "instances", "config"];
