import { openStore, parseStoreUrl } from "@berth/adapter-sqlite";
import { Engine } from "@berth/engine";
import type { Logger } from "pino";
import { FileTokenStore } from "../auth/file-token-store.js";
import { MemoryTokenStore } from "../auth/memory-token-store.js";
import type { TokenStore } from "../auth/token-store.js";
import type { UsageSample } from "../metrics.js";
import { engineLoggerFor } from "./engine-logger.js";

export interface Backend {
  engine: Engine;
  tokens: TokenStore;
  usage(): Promise<UsageSample[]>;
  tick(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Tokens live beside the database file (`berth.db` -> `berth.db.tokens.json`),
 * so every berthd sharing the database shares its tokens; an in-memory
 * database gets in-memory tokens.
 */
export function tokenFileFor(db: string): string | undefined {
  const location = parseStoreUrl(db);
  if (location.kind === "file") return `${location.path}.tokens.json`;
  if (location.kind === "memory") return undefined;
  return process.env.BERTH_TOKENS_FILE ?? "berth-tokens.json";
}

export async function openTokenStore(db: string): Promise<TokenStore> {
  const file = tokenFileFor(db);
  return file === undefined ? new MemoryTokenStore() : new FileTokenStore(file);
}

/** Usage per member and class from the engine's model, for the Prometheus gauges. */
function usageOf(engine: Engine): UsageSample[] {
  const samples: UsageSample[] = [];
  for (const info of engine.listMembers()) {
    const { inventories } = engine.inventories(info.record.name);
    for (const [resourceClass, inv] of Object.entries(inventories)) {
      samples.push({
        member: info.record.name,
        resourceClass,
        used: inv.used + inv.forthcoming,
        capacity: (inv.total - inv.reserved) * inv.allocationRatio,
      });
    }
  }
  return samples;
}

/** Opens the store (SQLite file by default), the engine on it, and the token store. */
export async function openBackend(db: string, logger: Logger): Promise<Backend> {
  const store = await openStore(db);
  const engine = await Engine.open({ store, logger: engineLoggerFor(logger) });
  const tokens = await openTokenStore(db);
  return {
    engine,
    tokens,
    usage: async () => {
      // The gauges read the model: catch up with other processes first.
      await engine.sync();
      return usageOf(engine);
    },
    tick: () => engine.tick(),
    close: () => store.close(),
  };
}
