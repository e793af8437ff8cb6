/**
 * Which instance and profile config keys exist, as LXD's and Incus's
 * `ConfigKeyChecker` decides (Incus `internal/instance/config.go`, Incus's
 * wording where the two differ), plus Berth's own `placement.group`. A key
 * in none of the tables and in no free-form namespace is refused with
 * `Unknown configuration key: KEY`: a typo such as `limits.cpuz` would
 * otherwise be stored and placed holding no resources. Values of known keys
 * are checked with LXD's texts. Checks LXD makes with data Berth does not
 * have (cloud-init YAML, cron schedules, snapshot expiry grammar, raw.lxc)
 * accept any value: Berth places instances, the member's LXD starts them.
 */
import {
  isAny,
  isBool,
  isCpuAllowance,
  isCpuLimit,
  isInt64,
  isMemoryLimit,
  isOneOf,
  isPriority,
  isSize,
  isUint32,
  optional,
  type ValueCheck,
} from "./config-validators.js";
import { goQuote } from "./go-text.js";

/** Which keys apply: an instance's type, or `any` for a profile (which may serve both). */
export type ConfigKeyScope = "container" | "virtual-machine" | "any";

const bool = optional(isBool);
const int64 = optional(isInt64);
const uint32 = optional(isUint32);
const priority = optional(isPriority);
const size = optional(isSize);

/** Keys for containers and virtual machines alike. */
const KEYS_ANY: Readonly<Record<string, ValueCheck>> = {
  "boot.autostart": bool,
  "boot.autostart.delay": int64,
  "boot.autostart.priority": int64,
  "boot.stop.priority": int64,
  "boot.host_shutdown_timeout": int64,
  "cloud-init.network-config": isAny,
  "cloud-init.user-data": isAny,
  "cloud-init.vendor-data": isAny,
  "cluster.evacuate": optional(isOneOf("auto", "migrate", "live-migrate", "stop")),
  "limits.cpu": optional(isCpuLimit),
  "limits.cpu.nodes": optional(isCpuLimit),
  "limits.disk.priority": priority,
  "limits.memory": optional(isMemoryLimit),
  "limits.network.priority": priority,
  "migration.stateful": bool,
  "raw.apparmor": isAny,
  "raw.idmap": isAny,
  "security.devlxd": bool,
  "security.guestapi": bool,
  "security.protection.delete": bool,
  "snapshots.schedule": isAny,
  "snapshots.schedule.stopped": bool,
  "snapshots.pattern": isAny,
  "snapshots.expiry": isAny,
  // Berth's own: the placement group an instance joins (placement-groups).
  "placement.group": isAny,
};

const KEYS_CONTAINER: Readonly<Record<string, ValueCheck>> = {
  "limits.cpu.allowance": optional(isCpuAllowance),
  "limits.cpu.priority": priority,
  "limits.hugepages.64KB": size,
  "limits.hugepages.1MB": size,
  "limits.hugepages.2MB": size,
  "limits.hugepages.1GB": size,
  "limits.memory.enforce": optional(isOneOf("soft", "hard")),
  "limits.memory.swap": bool,
  "limits.memory.swap.priority": priority,
  "limits.processes": int64,
  "linux.kernel_modules": isAny,
  "migration.incremental.memory": bool,
  "migration.incremental.memory.iterations": uint32,
  "migration.incremental.memory.goal": uint32,
  "nvidia.runtime": bool,
  "nvidia.driver.capabilities": isAny,
  "nvidia.require.cuda": isAny,
  "nvidia.require.driver": isAny,
  "raw.lxc": isAny,
  "raw.seccomp": isAny,
  "security.devlxd.images": bool,
  "security.guestapi.images": bool,
  "security.idmap.base": uint32,
  "security.idmap.isolated": bool,
  "security.idmap.size": uint32,
  "security.nesting": bool,
  "security.privileged": bool,
  "security.protection.shift": bool,
  "security.syscalls.allow": isAny,
  "security.syscalls.deny_default": bool,
  "security.syscalls.deny_compat": bool,
  "security.syscalls.deny": isAny,
  "security.syscalls.intercept.bpf": bool,
  "security.syscalls.intercept.bpf.devices": bool,
  "security.syscalls.intercept.mknod": bool,
  "security.syscalls.intercept.mount": bool,
  "security.syscalls.intercept.mount.allowed": isAny,
  "security.syscalls.intercept.mount.fuse": isAny,
  "security.syscalls.intercept.mount.shift": bool,
  "security.syscalls.intercept.sched_setscheduler": bool,
  "security.syscalls.intercept.setxattr": bool,
  "security.syscalls.intercept.sysinfo": bool,
};

const KEYS_VM: Readonly<Record<string, ValueCheck>> = {
  "agent.nic_config": bool,
  "limits.memory.hugepages": bool,
  "raw.qemu": isAny,
  "raw.qemu.conf": isAny,
  "security.agent.metrics": bool,
  "security.csm": bool,
  "security.secureboot": bool,
  "security.sev": bool,
  "security.sev.policy.es": bool,
  "security.sev.session.dh": isAny,
  "security.sev.session.data": isAny,
};

/** Free-form namespaces: any key under them, any value (LXD's and Incus's list). */
const FREE_FORM_PREFIXES = ["user.", "environment.", "image.", "volatile."] as const;

function checkOf(key: string, scope: ConfigKeyScope): ValueCheck | undefined {
  const shared = KEYS_ANY[key];
  if (shared !== undefined) return shared;
  if (scope !== "virtual-machine" && KEYS_CONTAINER[key] !== undefined) return KEYS_CONTAINER[key];
  if (scope !== "container" && KEYS_VM[key] !== undefined) return KEYS_VM[key];
  if (FREE_FORM_PREFIXES.some((prefix) => key.startsWith(prefix))) return isAny;
  if (key.startsWith("limits.kernel.") && key.length > "limits.kernel.".length) return isAny;
  if (scope !== "virtual-machine" && key.startsWith("linux.sysctl.")) return isAny;
  return undefined;
}

/**
 * The text LXD answers for the first bad key of `config` (keys in order),
 * or undefined when every key exists for `scope` and holds a valid value.
 * A profile (`any`) cannot hold `volatile.*` or `image.*` keys, which LXD
 * keeps for instances.
 */
export function instanceConfigProblem(
  config: Readonly<Record<string, string>>,
  scope: ConfigKeyScope,
): string | undefined {
  for (const [key, value] of Object.entries(config)) {
    if (scope === "any" && key.startsWith("volatile.")) return "Volatile keys can only be set on instances";
    if (scope === "any" && key.startsWith("image.")) return "Image keys can only be set on instances";
    const check = checkOf(key, scope);
    if (check === undefined) return `Unknown configuration key: ${key}`;
    const problem = check(value);
    if (problem !== undefined) return `Invalid value for config ${goQuote(key)}: ${problem}`;
  }
  return undefined;
}
