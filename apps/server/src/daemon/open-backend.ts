import { createScriptletWorkerPool, Engine } from "@berth/engine";
import type { Logger } from "pino";
import type { TokenStore } from "../auth/token-store.js";
import type { UsageSample } from "../metrics/server-metrics.js";
import type { TrustStore } from "../trust/trust-store.js";
import { engineLoggerFor } from "./engine-logger.js";
import { importLegacyTokens } from "./legacy-tokens.js";
import { openDatabase } from "./open-store.js";
import { type DatabaseOptions, DEFAULT_SCRIPTLET_WORKERS } from "./options.js";
import { startStallClock } from "./stall-clock.js";

export interface Backend {
  engine: Engine;
  tokens: TokenStore;
  trust: TrustStore;
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
  const { store, tokens, legacyTokenFile } = await openDatabase(db);
  try {
    await importLegacyTokens(tokens, legacyTokenFile);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    tokens,
    projectExists: async (name) => (await store.projects.get({ name })) !== undefined,
    close: () => store.close(),
  };
}

/** Usage per member and class from the engine's model, for the Prometheus gauges. */
export function usageOf(engine: Engine): UsageSample[] {
  const samples: UsageSample[] = [];
  for (const info of engine.members.list()) {
    const { inventories } = engine.members.inventories(info.record.name);
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

/**
 * Opens the store (a SQLite file by default, PostgreSQL for a postgres://
 * URL), the engine on it, and the token store. `tickPeriodMs` is how often
 * `tick()` will be called (the engine tells its own stalls from quiet
 * members with it).
 */
export async function openBackend(
  db: string,
  logger: Logger,
  options: {
    database?: DatabaseOptions;
    tickPeriodMs?: number;
    /** Scriptlet worker threads (default 2); 0 runs scriptlets on the event loop. */
    scriptletWorkers?: number;
    /** Fixed heap limit per scriptlet worker, MiB (default: from max_memory). */
    scriptletHeapMb?: number;
    /** Ties among equally loaded members in this seed's order (default: join order). */
    tieSeed?: number;
  } = {},
): Promise<Backend> {
  const { store, tokens, trust, legacyTokenFile } = await openDatabase(db, options.database, (error) =>
    logger.warn({ err: error }, "database connection lost; reconnecting"),
  );
  const imported = await importLegacyTokens(tokens, legacyTokenFile);
  if (imported > 0)
    logger.info({ imported, file: legacyTokenFile }, "imported API tokens from the old token file");
  // berthd's own stalls do not count against members' heartbeats (stall-clock.ts).
  const clock = startStallClock();
  const workers = options.scriptletWorkers ?? DEFAULT_SCRIPTLET_WORKERS;
  // Scriptlets run off the event loop: health, reads and heartbeats keep their latency while one runs.
  const scriptletRunner =
    workers === 0
      ? undefined
      : createScriptletWorkerPool({
          size: workers,
          ...(options.scriptletHeapMb === undefined ? {} : { heapMb: options.scriptletHeapMb }),
          onReplaced: (reason) => logger.warn({ reason }, "scriptlet worker replaced"),
        });
  const engine = await Engine.open({
    store,
    logger: engineLoggerFor(logger),
    clock,
    ...(scriptletRunner === undefined ? {} : { scriptletRunner }),
    ...(options.tickPeriodMs === undefined ? {} : { tickPeriodMs: options.tickPeriodMs }),
    ...(options.tieSeed === undefined ? {} : { tieSeed: options.tieSeed }),
  });
  return {
    engine,
    tokens,
    trust,
    usage: async () => {
      // The gauges read the model: catch up with other processes first.
      await engine.sync();
      return usageOf(engine);
    },
    tick: () => engine.tick(),
    close: async () => {
      clock.stop();
      // Another server takes over offline detection and healing at once.
      await engine.standDown().catch(() => undefined);
      await engine.close();
      await store.close();
    },
  };
}
