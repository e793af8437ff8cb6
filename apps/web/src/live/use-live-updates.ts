import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { LiveSource } from "./live-source.js";
import type { Topic } from "./topics.js";

/** Refetches the queries of every topic the source names. */
export function applyChanges(client: QueryClient, topics: readonly Topic[]): void {
  for (const topic of topics) void client.invalidateQueries({ queryKey: [topic] });
}

/** Runs `source` while the component is mounted; answers when it last reported a change. */
export function useLiveUpdates(source: LiveSource): { lastChange: Date | null } {
  const client = useQueryClient();
  const [lastChange, setLastChange] = useState<Date | null>(null);
  useEffect(
    () =>
      source.start((topics) => {
        applyChanges(client, topics);
        setLastChange(new Date());
      }),
    [client, source],
  );
  return { lastChange };
}
