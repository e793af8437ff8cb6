#!/usr/bin/env node
import { resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { redactedUrl } from "@berth/adapter-postgres/settings";
import { defaultSocketPath } from "@berth/client/node";
import { createApp } from "./app/app.js";
import { SERVER_VERSION } from "./app/version.js";
import { defaultConsoleDir } from "./console/console-assets.js";
import { consoleMessage, firstRunMessage, logFileMessage } from "./daemon/bootstrap.js";
import { databaseLocation } from "./daemon/database-location.js";
import { beatDemoMembers, DEMO_HEARTBEAT_MS, demoInstructions, loadDemoCluster } from "./daemon/demo.js";
import { HTTPS_ADDRESS_KEY, HttpsAddressFollower } from "./daemon/https-address.js";
import { importLegacyTrustFile } from "./daemon/legacy-trust-file.js";
import { createLogger } from "./daemon/logging.js";
import { openBackend, openTokenAdmin } from "./daemon/open-backend.js";
import { parseDaemonOptions, USAGE, UsageError } from "./daemon/options.js";
import { selfCommands } from "./daemon/self-command.js";
import { startTicker } from "./daemon/ticker.js";
import { runTokenCommand } from "./daemon/token-command.js";
import { listen, type RunningServer } from "./http/listen.js";
import { ServerMetrics } from "./metrics/server-metrics.js";
import { advertisedAddresses, daemonTrust } from "./trust/daemon-trust.js";

/**
 * One major garbage collection once the store and the engine are open. Loading the model leaves
 * most of the heap garbage (at 10,000 members / 1,000,000 instances, ~85 of ~144 MiB at the first
 * answer), and V8 let the heap grow further under the first requests before collecting it:
 * peak RSS after start-up and 200 creates 245-250 against 263-264 MiB with this, start-up
 * unchanged (three alternated pairs, 2026-11-29). Node has no call for it but V8's own `gc`,
 * which the flag exposes to contexts created after it is set; asked to run concurrently, the
 * marking goes on beside the first requests instead of delaying them.
 */
function collectLoadingGarbage(): void {
  setFlagsFromString("--expose-gc");
  void (runInNewContext("gc") as (options: object) => Promise<void>)({ type: "major", execution: "async" });
}

async function serve(argv: string[]): Promise<void> {
  const options = parseDaemonOptions(argv);
  const logger = createLogger({ level: options.logLevel, file: options.logFile });
  const backend = await openBackend(options.db, logger, {
    database: options.database,
    tickPeriodMs: options.tickSeconds * 1000,
    scriptletWorkers: options.scriptletWorkers,
    ...(options.scriptletHeapMb === undefined ? {} : { scriptletHeapMb: options.scriptletHeapMb }),
    ...(options.tieSeed === undefined ? {} : { tieSeed: options.tieSeed }),
  });
  collectLoadingGarbage();
  const metrics = new ServerMetrics({
    processMetrics: true,
    usage: () => backend.usage(),
    engine: () => backend.engine.metrics(),
  });
  const consoleDir = defaultConsoleDir();
  const { tls, trust } = await daemonTrust({ ...options, store: backend.trust });
  const importedCertificates = await importLegacyTrustFile(backend.trust, options.stateDir);
  if (importedCertificates > 0)
    logger.info(
      { imported: importedCertificates },
      "imported trusted certificates from the state directory's old file",
    );
  // Set once listening: `core.https_address` moves the TCP listener.
  let follower: HttpsAddressFollower | undefined;
  const app = createApp({
    trust,
    applyServerConfig: async (config) => {
      const reason = await follower?.apply(config[HTTPS_ADDRESS_KEY]);
      return reason === undefined ? undefined : { key: HTTPS_ADDRESS_KEY, reason };
    },
    engine: backend.engine,
    ...(consoleDir !== undefined ? { consoleDir } : {}),
    tokens: backend.tokens,
    logger,
    metrics,
    bodyLimitBytes: options.bodyLimitBytes,
    bodyMemoryBytes: options.bodyMemoryBytes,
    maxInFlight: options.maxInFlight,
    version: SERVER_VERSION,
    placementNoauth: options.placementNoauth,
  });
  let running: RunningServer;
  try {
    running = await listen(app, {
      ...(options.listen ? { tcp: { ...options.listen, ...(tls ? { tls } : {}) } } : {}),
      ...(options.socket !== undefined ? { socketPath: options.socket } : {}),
      ...(options.socketGroup !== undefined ? { socketGroup: options.socketGroup } : {}),
    });
  } catch (err) {
    await backend.close();
    throw err;
  }
  const advertise = () => {
    trust.addresses = running.httpsUrl !== undefined ? advertisedAddresses(running.httpsUrl) : [];
  };
  advertise();
  const https = new HttpsAddressFollower(running, options.listen, {
    placementNoauth: options.placementNoauth,
    logger,
    moved: advertise,
  });
  follower = https;
  await https.follow((await backend.engine.config.get()).values);
  const ticker = startTicker(
    async () => {
      await backend.tick();
      await https.follow((await backend.engine.config.get()).values);
    },
    options.tickSeconds * 1000,
    logger,
  );
  logger.info(
    {
      url: running.url,
      ...(running.httpsUrl !== undefined ? { https_url: running.httpsUrl } : {}),
      socket: running.socketPath,
      db: redactedUrl(options.db),
      version: SERVER_VERSION,
      ...(tls !== undefined ? { certificate_fingerprint: trust.serverFingerprint } : {}),
    },
    "berthd listening",
  );

  let demoBeats: { stop(): void } | undefined;
  if (options.demo) {
    const loaded = await loadDemoCluster(app);
    logger.info({ loaded }, loaded ? "demo cluster loaded" : "database not empty: demo cluster not loaded");
    // The demo members are imaginary: berthd sends their heartbeats so they stay online.
    demoBeats = startTicker(() => beatDemoMembers(app), DEMO_HEARTBEAT_MS, logger);
  }
  const tokens = await backend.tokens.list();
  const commands = selfCommands();
  const db = databaseLocation(options.db);
  if (tokens.length === 0) process.stdout.write(firstRunMessage(commands.berthd, db, running));
  if (options.demo) process.stdout.write(demoInstructions(running, commands, db, defaultSocketPath()));
  if (options.logFile !== undefined) process.stdout.write(logFileMessage(resolve(options.logFile)));
  process.stdout.write(consoleMessage(running, consoleDir !== undefined));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    ticker.stop();
    demoBeats?.stop();
    await running.close();
    await backend.close();
    logger.info("berthd stopped");
    logger.flush();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

async function main(argv: string[]): Promise<void> {
  try {
    if (argv[0] === "token") {
      process.stdout.write(`${await runTokenCommand(argv.slice(1), openTokenAdmin)}\n`);
      return;
    }
    await serve(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(err.message === "" ? USAGE : `berthd: ${err.message}\n\n${USAGE}`);
      process.exit(err.message === "" ? 0 : 2);
    }
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`berthd: ${(err as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`berthd: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

void main(process.argv.slice(2));
