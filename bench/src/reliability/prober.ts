/**
 * A prober: sends `GET path` every `everyMs` until stopped and keeps each
 * answer's latency and every non-200 status, to show how promptly berthd
 * answers other requests while it is under some load.
 */
import type { Berthd } from "../server/berthd.js";

export function startProber(server: Berthd, path: string, everyMs: number) {
  let running = true;
  const latencies: number[] = [];
  const failures: number[] = [];
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const { status } = await server.request("GET", path);
      latencies.push(performance.now() - started);
      if (status !== 200) failures.push(status);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { latencies, failures };
    },
  };
}
