import { openStore } from "@berth/adapter-sqlite";
import { Engine } from "@berth/engine";
import type { Logger } from "pino";
import type { TokenStore } from "../auth/token-store.js";
import type { UsageSample } from "../metrics/server-metrics.js";
import { engineLoggerFor } from "./engine-logger.js";
import { importLegacyTokens, legacyTokenFileFor } from "./legacy-tokens.js";
import { startStallClock } from "./stall-clock.js";

export interface Backend {
  engine: Engine;
  tokens: TokenStore;
  usage(): Promise<UsageSample[]>;
  tick(): Promise<unknown>;
  close(): Promise<void>;
}

/** The token store of a database, for `berthd token ...`: close it when done. */
export interface TokenAdmin {
  tokens: TokenStore;
  /** Does the database hold this project? (a restricted token may only name existing ones) */
  projectExists(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Tokens live in the database (table `api_tokens`), so every berthd sharing
 * it, on this host or another, knows the same tokens. A token file of an
 * older berthd is imported on first open.
 */
export async function openTokenAdmin(db: string): Promise<TokenAdmin> {
  const store = await openStore(db);
  try {
    await importLegacyTokens(store.tokens, legacyTokenFileFor(db));
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    tokens: store.tokens,
    projectExists: async (name) => (await store.projects.get({ name })) !== undefined,
    close: () => store.close(),
  };
}

/** Usage per member and class from the engine's model, for the Prometheus gauges. */
export function usageOf(engine: Engine): UsageSample[] {
  const samples: UsageSample[] = [];
  for (const info of engine.listMembers()) {
    const { inventories } = engine.inventories(info.record.name);
    for (const [resourceClass, inv] of Object.entries(inventories)) {
      samples.push({
        member: info.record.name,
        resourceClass,
        used: inv.used + inv.forthcoming,
        capacity: inv.capacity,
      });
    }
  }
  return samples;
}

/** Opens the store (SQLite file by default), the engine on it, and the token store. */
export async function openBackend(db: string, logger: Logger): Promise<Backend> {
  const store = await openStore(db);
  const legacyFile = legacyTokenFileFor(db);
  const imported = await importLegacyTokens(store.tokens, legacyFile);
  if (imported > 0)
    logger.info({ imported, file: legacyFile }, "imported API tokens from the old token file");
  // berthd's own stalls do not count against members' heartbeats (stall-clock.ts).
  const clock = startStallClock();
  const engine = await Engine.open({ store, logger: engineLoggerFor(logger), clock });
  return {
    engine,
    tokens: store.tokens,
    usage: async () => {
      // The gauges read the model: catch up with other processes first.
      await engine.sync();
      return usageOf(engine);
    },
    tick: () => engine.tick(),
    close: () => {
      clock.stop();
      return store.close();
    },
  };
}
