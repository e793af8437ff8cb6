import { z } from "zod";
import { checkExpiry } from "./expiry.js";
import { MAX_ALLOCATION_RATIO } from "./inventories.js";
import { ARCHITECTURES } from "./primitives.js";

/*
 * Server config keys (`GET/PUT/PATCH /1.0`, `berth config set KEY VALUE`). Values are
 * strings, as in LXD; the empty string means "unset" (the default applies), so every key
 * accepts "". Each key has one checker whose message says what a good value looks like.
 */

export interface ServerConfigKey {
  readonly key: string;
  readonly description: string;
  /** The value in force when the key is unset (`""`: nothing, e.g. no scriptlet). */
  readonly defaultValue: string;
  /** Returns why `value` is unacceptable, or undefined when it is fine. Never called with "". */
  readonly check: (value: string) => string | undefined;
}

const DECIMAL_INTEGER = /^[0-9]+$/;
const DECIMAL_NUMBER = /^[0-9]+(\.[0-9]+)?$/;

function integerIn(min: number, max: number, unit: string): (value: string) => string | undefined {
  const rule = `must be an integer ${unit}from ${min} to ${max}`;
  return (value) => {
    if (!DECIMAL_INTEGER.test(value)) return rule;
    const n = Number(value);
    return n < min || n > max ? rule : undefined;
  };
}

const GO_INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Incus's check of an `Int64` key (Go's strconv.ParseInt), with its text. */
function goInt64(value: string): string | undefined {
  if (!GO_INT64.test(value)) return "invalid integer";
  const n = BigInt(value);
  return n < INT64_MIN || n > INT64_MAX ? "invalid integer" : undefined;
}

/** Incus's `rebalanceThresholdValidator`, after its integer check: a percentage from 10 to 100. */
function rebalanceThreshold(value: string): string | undefined {
  const notInteger = goInt64(value);
  if (notInteger !== undefined) return notInteger;
  const n = Number(value);
  return n < 10 || n > 100 ? "Value must be between 10 and 100" : undefined;
}

function allocationRatio(value: string): string | undefined {
  const rule = `must be a decimal number greater than 0 and at most ${MAX_ALLOCATION_RATIO} (e.g. "4.0")`;
  if (!DECIMAL_NUMBER.test(value)) return rule;
  const n = Number(value);
  return n > 0 && n <= MAX_ALLOCATION_RATIO ? undefined : rule;
}

/** Largest accepted scriptlet source: 1 MiB of text is far beyond any real placement policy. */
export const MAX_SCRIPTLET_SOURCE_LENGTH = 1_048_576;

/** Longest per-run deadline: LXD/Incus give evacuations 5 s; twice that is the most one run may hold the event loop. */
export const MAX_SCRIPTLET_TIMEOUT_MS = 10_000;

/** Most bytes a scriptlet run may be allowed to allocate: far under Node's default heap, so a bomb fails the run, not the server. */
export const MAX_SCRIPTLET_MEMORY_BYTES = 1_073_741_824;

/** LXD's default HTTPS port, for a `core.https_address` given without one. */
export const DEFAULT_HTTPS_PORT = 8443;

/**
 * A `core.https_address` as LXD reads it: `HOST:PORT`, `[IPV6]:PORT`,
 * `:PORT` (every address) or a bare host (port 8443). Undefined when it is
 * not an address.
 */
export function parseHttpsAddress(value: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]*))(?::(\d{1,5}))?$/.exec(value);
  if (match === null) return undefined;
  const host = match[1] ?? match[2] ?? "";
  const port = match[3] === undefined ? DEFAULT_HTTPS_PORT : Number(match[3]);
  if (port < 1 || port > 65535 || (host === "" && match[3] === undefined)) return undefined;
  // ":8443" listens on every address, IPv4 and IPv6, as LXD does.
  return { host: host === "" ? "::" : host, port };
}

export const SERVER_CONFIG_KEYS: readonly ServerConfigKey[] = [
  {
    key: "core.https_address",
    description:
      "Address berthd's TCP listener binds instead of --listen (LXD's core.https_address): HOST:PORT, [IPV6]:PORT, :PORT for every address, or a host (port 8443). It speaks HTTPS with berthd's certificate and plain HTTP on the same port. Empty: back to --listen.",
    defaultValue: "",
    check: (value) =>
      parseHttpsAddress(value) === undefined
        ? 'must be an address such as ":8443", "10.0.0.5:8443" or "[::1]:8443"'
        : undefined,
  },
  {
    key: "instances.placement.scriptlet",
    description:
      "Starlark source of the placement scriptlet (function instance_placement). Compiled and signature-checked when set; empty removes it.",
    defaultValue: "",
    check: (value) =>
      value.length > MAX_SCRIPTLET_SOURCE_LENGTH
        ? `must be at most ${MAX_SCRIPTLET_SOURCE_LENGTH} characters long`
        : undefined,
  },
  {
    key: "instances.placement.scriptlet.max_steps",
    description:
      "Most Starlark execution steps one scriptlet run may take (top level plus instance_placement); exceeding it fails the placement.",
    defaultValue: "10000000",
    check: integerIn(1, 1_000_000_000_000, ""),
  },
  {
    key: "instances.placement.scriptlet.timeout_ms",
    description:
      "Wall-clock deadline of one scriptlet run, in milliseconds (LXD/Incus give evacuations 5 s). At most 10 s: a run holds the server's event loop while it lasts.",
    defaultValue: "5000",
    check: integerIn(1, MAX_SCRIPTLET_TIMEOUT_MS, "of milliseconds "),
  },
  {
    key: "instances.placement.scriptlet.total_timeout_ms",
    description:
      "Wall-clock time all scriptlet runs of one operation may take together (a bulk create, an evacuation, a rebalance, a healing pass), in milliseconds; once spent, the operation fails with nothing placed.",
    defaultValue: "60000",
    check: integerIn(1, 600_000, "of milliseconds "),
  },
  {
    key: "instances.placement.scriptlet.max_string_length",
    description: "Longest string (in characters) a scriptlet may build; longer results fail the run.",
    defaultValue: "1048576",
    check: integerIn(1, 1_073_741_824, "of characters "),
  },
  {
    key: "instances.placement.scriptlet.max_collection_size",
    description:
      "Most elements a scriptlet list, tuple, dict or set may hold; growing past it fails the run.",
    defaultValue: "1000000",
    check: integerIn(1, 1_073_741_824, "of elements "),
  },
  {
    key: "instances.placement.scriptlet.max_memory",
    description:
      "Bytes one scriptlet run may allocate in total (strings, list slots, dict entries, counted as they are built, not only what stays alive); passing it fails the run. At most 1 GiB, so no scriptlet can exhaust the server's heap.",
    defaultValue: "268435456",
    check: integerIn(1_048_576, MAX_SCRIPTLET_MEMORY_BYTES, "of bytes "),
  },
  {
    key: "cluster.offline_threshold",
    description:
      "Seconds without a heartbeat (PUT .../state) after which a member counts as offline (LXD: default 20, minimum 10).",
    defaultValue: "20",
    check: integerIn(10, 86_400, "of seconds "),
  },
  {
    key: "cluster.healing_threshold",
    description:
      "Seconds a member may stay offline before its instances are relocated elsewhere (reason relocation); 0 disables healing.",
    defaultValue: "0",
    check: integerIn(0, 31_536_000, "of seconds "),
  },
  {
    key: "cluster.evacuation_warning_threshold",
    description:
      'Seconds a member may stay evacuated before the "Cluster member evacuated" warning is raised (an evacuation that long was likely forgotten); 0 disables the warning. Berth only.',
    defaultValue: "86400",
    check: integerIn(0, 31_536_000, "of seconds "),
  },
  {
    key: "cluster.rebalance.batch",
    description:
      "Maximum number of instances to move during one re-balancing run (Incus's cluster.rebalance.batch).",
    defaultValue: "1",
    check: goInt64,
  },
  {
    key: "cluster.rebalance.cooldown",
    description:
      'Amount of time during which an instance will not be moved again by automatic re-balancing, as an Incus expiry expression: "<n>S|M|H|d|w|m|y" fields, e.g. "6H" or "1d 12H" (Incus\'s cluster.rebalance.cooldown).',
    defaultValue: "6H",
    check: checkExpiry,
  },
  {
    key: "cluster.rebalance.interval",
    description:
      "How often (in minutes) to consider re-balancing things. 0 to disable (default). Only instances that can live-migrate move (Incus's cluster.rebalance.interval).",
    defaultValue: "0",
    check: goInt64,
  },
  {
    key: "cluster.rebalance.threshold",
    description:
      "Percentage load difference between most and least busy server needed to trigger a migration, 10 to 100 (Incus's cluster.rebalance.threshold).",
    defaultValue: "20",
    check: rebalanceThreshold,
  },
  {
    key: "scheduler.cpu_allocation_ratio",
    description:
      "Allocation ratio of derived VCPU inventories. 16.0 (Nova's cpu_allocation_ratio before Stein): limits.cpu is a ceiling containers share, and LXD runs whatever fits under it.",
    defaultValue: "16.0",
    check: allocationRatio,
  },
  {
    key: "scheduler.ram_allocation_ratio",
    description:
      "Allocation ratio of derived MEMORY_MB inventories. 1.5 (Nova's ram_allocation_ratio before Stein): limits.memory is a cgroup ceiling, rarely all used at once.",
    defaultValue: "1.5",
    check: allocationRatio,
  },
  {
    key: "scheduler.disk_allocation_ratio",
    description:
      "Allocation ratio of derived DISK_GB inventories (1.0: a root disk size is a quota the pool must be able to hold).",
    defaultValue: "1.0",
    check: allocationRatio,
  },
  {
    key: "images.default_architecture",
    description:
      "Architecture assumed when an image's architectures are unknown (LXD images.default_architecture); empty: no architecture filter.",
    defaultValue: "",
    check: (value) =>
      (ARCHITECTURES as readonly string[]).includes(value)
        ? undefined
        : `must be an architecture name (${ARCHITECTURES.join(", ")})`,
  },
];

const KEYS_BY_NAME = new Map(SERVER_CONFIG_KEYS.map((spec) => [spec.key, spec]));

/** `user.*` keys are free-form, as in LXD, for operators' own notes. */
export function isUserConfigKey(key: string): boolean {
  return key.startsWith("user.") && key.length > "user.".length;
}

/** Why `value` cannot be stored under `key`, or undefined when it can. */
export function checkServerConfigValue(key: string, value: string): string | undefined {
  if (value === "" || isUserConfigKey(key)) return undefined;
  const spec = KEYS_BY_NAME.get(key);
  if (spec === undefined) return "unknown server config key";
  return spec.check(value);
}

/**
 * LXD's wording for a refused config value, for servers that answer `PUT /1.0` like LXD:
 * `Cannot set "KEY" to "VALUE": REASON` (the value JSON-quoted, like Go's %q).
 */
export function serverConfigErrorMessage(key: string, value: string, reason: string): string {
  return `Cannot set ${JSON.stringify(key)} to ${JSON.stringify(value)}: ${reason}`;
}

/**
 * Rules between keys, over a whole config (absent keys take their
 * defaults): `cluster.healing_threshold` is 0 or at least
 * `cluster.offline_threshold`, as LXD documents it (a member cannot be
 * healed before it counts as offline).
 */
export function checkServerConfigCombination(
  config: Readonly<Record<string, string | undefined>>,
): { key: string; value: string; reason: string } | undefined {
  const value = (key: string) => config[key] ?? serverConfigDefault(key) ?? "";
  const offline = Number(value("cluster.offline_threshold"));
  const healing = value("cluster.healing_threshold");
  if (Number(healing) !== 0 && Number(healing) < offline) {
    return {
      key: "cluster.healing_threshold",
      value: healing,
      reason: `must be 0 or at least cluster.offline_threshold (${offline})`,
    };
  }
  return undefined;
}

const knownKeyShape = Object.fromEntries(
  SERVER_CONFIG_KEYS.map((spec) => [spec.key, z.string().optional().describe(spec.description)]),
) as Record<string, z.ZodOptional<z.ZodString>>;

/**
 * The server config object. Known keys are listed (so the generated OpenAPI document shows
 * them); `user.*` keys pass through; any other key is an unknown field.
 */
export const ServerConfigSchema = z
  .object(knownKeyShape)
  .catchall(z.string())
  .superRefine((config, ctx) => {
    for (const [key, value] of Object.entries(config)) {
      if (value === undefined) continue;
      if (!KEYS_BY_NAME.has(key) && !isUserConfigKey(key)) {
        ctx.addIssue({ code: "unrecognized_keys", keys: [key], input: config });
        continue;
      }
      const reason = checkServerConfigValue(key, value);
      if (reason !== undefined) ctx.addIssue({ code: "custom", path: [key], message: reason, input: value });
    }
    // A body may be a PATCH: only when it names both keys can it be judged alone (the engine judges the result).
    const both =
      config["cluster.offline_threshold"] !== undefined && config["cluster.healing_threshold"] !== undefined;
    const clash = both
      ? checkServerConfigCombination(config as Record<string, string | undefined>)
      : undefined;
    if (clash !== undefined) {
      ctx.addIssue({ code: "custom", path: [clash.key], message: clash.reason, input: clash.value });
    }
  });
export type ServerConfig = Record<string, string>;

/** The server config with defaults applied and numbers parsed, as the engine consumes it. */
export interface EffectiveServerConfig {
  readonly scriptlet: string;
  readonly scriptletLimits: {
    readonly maxSteps: number;
    readonly timeoutMs: number;
    readonly maxStringLength: number;
    readonly maxCollectionSize: number;
    readonly maxAllocBytes: number;
  };
  /** All scriptlet runs of one operation together, in milliseconds. */
  readonly scriptletTotalTimeoutMs: number;
  readonly offlineThresholdSeconds: number;
  /** 0: healing disabled. */
  readonly healingThresholdSeconds: number;
  /** 0: no warning for long evacuations. */
  readonly evacuationWarningThresholdSeconds: number;
  /** Incus's automatic rebalancing (`cluster.rebalance.*`). */
  readonly rebalance: RebalanceSettings;
  readonly allocationRatios: { readonly VCPU: number; readonly MEMORY_MB: number; readonly DISK_GB: number };
  /** "" when unset. */
  readonly defaultArchitecture: string;
}

/** `cluster.rebalance.*` with defaults applied. */
export interface RebalanceSettings {
  /** Minutes between runs; 0 or less: disabled. */
  readonly intervalMinutes: number;
  /** Percentage difference between the most and least loaded member that triggers moves (10-100). */
  readonly thresholdPercent: number;
  /** Most instances one run moves. */
  readonly batch: number;
  /** Expiry expression: how long a moved instance is not moved again. */
  readonly cooldown: string;
}

/** Default of `key` (exported for `berth config get` and docs). */
export function serverConfigDefault(key: string): string | undefined {
  return KEYS_BY_NAME.get(key)?.defaultValue;
}

/**
 * Applies defaults to a validated config. Call only with a config that passed
 * ServerConfigSchema: the numbers are then known to parse.
 */
export function effectiveServerConfig(config: ServerConfig): EffectiveServerConfig {
  const value = (key: string): string => {
    const set = config[key];
    return set !== undefined && set !== "" ? set : (KEYS_BY_NAME.get(key)?.defaultValue ?? "");
  };
  const num = (key: string): number => Number(value(key));
  return {
    scriptlet: value("instances.placement.scriptlet"),
    scriptletLimits: {
      maxSteps: num("instances.placement.scriptlet.max_steps"),
      timeoutMs: num("instances.placement.scriptlet.timeout_ms"),
      maxStringLength: num("instances.placement.scriptlet.max_string_length"),
      maxCollectionSize: num("instances.placement.scriptlet.max_collection_size"),
      maxAllocBytes: num("instances.placement.scriptlet.max_memory"),
    },
    scriptletTotalTimeoutMs: num("instances.placement.scriptlet.total_timeout_ms"),
    offlineThresholdSeconds: num("cluster.offline_threshold"),
    healingThresholdSeconds: num("cluster.healing_threshold"),
    evacuationWarningThresholdSeconds: num("cluster.evacuation_warning_threshold"),
    rebalance: {
      intervalMinutes: num("cluster.rebalance.interval"),
      thresholdPercent: num("cluster.rebalance.threshold"),
      batch: num("cluster.rebalance.batch"),
      cooldown: value("cluster.rebalance.cooldown"),
    },
    allocationRatios: {
      VCPU: num("scheduler.cpu_allocation_ratio"),
      MEMORY_MB: num("scheduler.ram_allocation_ratio"),
      DISK_GB: num("scheduler.disk_allocation_ratio"),
    },
    defaultArchitecture: value("images.default_architecture"),
  };
}
