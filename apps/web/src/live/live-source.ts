import type { Topic } from "./topics.js";

/**
 * Where the console learns that something changed. The app starts one
 * source and refetches the topics it names (live/use-live-updates.ts);
 * nothing else in the console knows how changes are noticed.
 *
 * Today's source polls (live/polling-source.ts): berthd has no event stream
 * yet. When `GET /1.0/events?type=lifecycle,operation,logging` lands (LXD's
 * websocket and message format, issue #18), an events source implements
 * this same interface — lifecycle `instance-*` events name "instances" and
 * "members" (usage moved), `cluster-member-*` events "members",
 * `config-updated` "config" — and `liveSource()` picks it when the
 * server advertises the events API; the views stay as they are.
 */
export interface LiveSource {
  /** How the console describes this source in its header ("polling every 2 s"). */
  readonly description: string;
  /** Starts noticing changes; `changed` gets the topics to refetch. Returns the stop function. */
  start(changed: (topics: readonly Topic[]) => void): () => void;
}
