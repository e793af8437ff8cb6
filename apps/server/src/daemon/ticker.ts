import type { Logger } from "pino";

export interface Ticker {
  stop(): void;
}

/**
 * Runs the engine's periodic duty (mark members offline past
 * `cluster.offline_threshold`, heal them past `cluster.healing_threshold`)
 * every `periodMs`. Runs never overlap: a slow tick delays the next one
 * instead of piling up.
 */
export function startTicker(tick: () => Promise<unknown>, periodMs: number, logger: Logger): Ticker {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, periodMs);
    timer.unref();
  };
  const run = async () => {
    try {
      const outcome = await tick();
      if (outcome !== undefined) logger.debug({ outcome }, "cluster tick");
    } catch (err) {
      logger.error({ err }, "cluster tick failed");
    }
    schedule();
  };
  schedule();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
