import { describe, expect, it } from "vitest";
import { ServerPatchSchema, ServerPutSchema, ServerSchema } from "./server.js";
import {
  checkServerConfigValue,
  effectiveServerConfig,
  parseHttpsAddress,
  SERVER_CONFIG_KEYS,
  ServerConfigSchema,
  serverConfigDefault,
  serverConfigErrorMessage,
} from "./server-config.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

const scriptlet = `def instance_placement(request, candidate_members):
    set_target(candidate_members[0].server_name)
`;

describe("server config keys", () => {
  it('accepts every key with its default value, and unsetting with ""', () => {
    for (const spec of SERVER_CONFIG_KEYS) {
      expect(checkServerConfigValue(spec.key, spec.defaultValue)).toBeUndefined();
      expect(checkServerConfigValue(spec.key, "")).toBeUndefined();
    }
  });

  it("accepts a realistic config, including user.* keys", () => {
    const config = {
      "instances.placement.scriptlet": scriptlet,
      "instances.placement.scriptlet.max_steps": "500000",
      "instances.placement.scriptlet.timeout_ms": "250",
      "instances.placement.scriptlet.max_string_length": "65536",
      "instances.placement.scriptlet.max_collection_size": "100000",
      "cluster.offline_threshold": "30",
      "cluster.healing_threshold": "120",
      "scheduler.cpu_allocation_ratio": "16.0",
      "scheduler.ram_allocation_ratio": "1.5",
      "scheduler.disk_allocation_ratio": "1",
      "images.default_architecture": "x86_64",
      "user.site": "ams1",
    };
    expect(parseBody(ServerConfigSchema, config)).toEqual({ ok: true, value: config });
  });

  it("explains each refused value", () => {
    const cases: [string, string, unknown][] = [
      ["instances.placement.scriptlet.max_steps", "0", "must be an integer from 1 to 1000000000000"],
      ["instances.placement.scriptlet.max_steps", "1e6", "must be an integer from 1 to 1000000000000"],
      [
        "instances.placement.scriptlet.timeout_ms",
        "10001",
        "must be an integer of milliseconds from 1 to 10000",
      ],
      [
        "instances.placement.scriptlet.total_timeout_ms",
        "0",
        "must be an integer of milliseconds from 1 to 600000",
      ],
      [
        "instances.placement.scriptlet.max_memory",
        "1073741825",
        "must be an integer of bytes from 1048576 to 1073741824",
      ],
      [
        "instances.placement.scriptlet.max_string_length",
        "-5",
        "must be an integer of characters from 1 to 1073741824",
      ],
      [
        "instances.placement.scriptlet.max_collection_size",
        "many",
        "must be an integer of elements from 1 to 1073741824",
      ],
      ["cluster.offline_threshold", "5", "must be an integer of seconds from 10 to 86400"],
      ["cluster.healing_threshold", "1.5", "must be an integer of seconds from 0 to 31536000"],
      [
        "scheduler.cpu_allocation_ratio",
        "0",
        'must be a decimal number greater than 0 and at most 3.40282e+38 (e.g. "4.0")',
      ],
      [
        "scheduler.ram_allocation_ratio",
        "-1",
        'must be a decimal number greater than 0 and at most 3.40282e+38 (e.g. "4.0")',
      ],
      [
        "images.default_architecture",
        "amd64",
        expect.stringContaining("must be an architecture name (i686, x86_64"),
      ],
      ["core.trust_password", "sekret", "unknown server config key"],
    ];
    for (const [key, value, reason] of cases) {
      expect(checkServerConfigValue(key, value)).toEqual(reason);
    }
  });

  it("reports a bad value through parseBody with the key's path", () => {
    expect(errorOf(parseBody(ServerPutSchema, { config: { "cluster.offline_threshold": "5" } }))).toBe(
      'Invalid field "config.cluster.offline_threshold": must be an integer of seconds from 10 to 86400',
    );
    expect(errorOf(parseBody(ServerPutSchema, { config: { "cluster.offline_threshold": 20 } }))).toBe(
      'Invalid field "config.cluster.offline_threshold": expected string, got number',
    );
  });

  it("reports an unknown key as an unknown field", () => {
    expect(
      errorOf(parseBody(ServerPutSchema, { config: { "instances.placement.scriptlet.steps": "10" } })),
    ).toBe('Unknown field "config.instances.placement.scriptlet.steps"');
    expect(errorOf(parseBody(ServerPatchSchema, { config: {}, api_extensions: [] }))).toBe(
      'Unknown field "api_extensions"',
    );
  });

  it("refuses a healing threshold below the offline threshold", () => {
    const config = { "cluster.offline_threshold": "60", "cluster.healing_threshold": "30" };
    expect(errorOf(parseBody(ServerConfigSchema, config))).toBe(
      'Invalid field "cluster.healing_threshold": must be 0 or at least cluster.offline_threshold (60)',
    );
    expect(parseBody(ServerConfigSchema, { ...config, "cluster.healing_threshold": "0" }).ok).toBe(true);
  });

  it("caps the scriptlet source at 1 MiB", () => {
    expect(checkServerConfigValue("instances.placement.scriptlet", "#".repeat(1_048_577))).toBe(
      "must be at most 1048576 characters long",
    );
  });

  it("formats LXD's refusal message", () => {
    expect(
      serverConfigErrorMessage(
        "instances.placement.scriptlet",
        "foo",
        "instance_placement:1:1: undefined: foo",
      ),
    ).toBe('Cannot set "instances.placement.scriptlet" to "foo": instance_placement:1:1: undefined: foo');
  });

  it("applies defaults and parses numbers for the engine", () => {
    expect(effectiveServerConfig({})).toEqual({
      scriptlet: "",
      scriptletLimits: {
        maxSteps: 10_000_000,
        timeoutMs: 5000,
        maxStringLength: 1_048_576,
        maxCollectionSize: 1_000_000,
        maxAllocBytes: 268_435_456,
      },
      scriptletTotalTimeoutMs: 60_000,
      offlineThresholdSeconds: 20,
      healingThresholdSeconds: 0,
      evacuationWarningThresholdSeconds: 86_400,
      rebalance: { intervalMinutes: 0, thresholdPercent: 20, batch: 1, cooldown: "6H" },
      allocationRatios: { VCPU: 16, MEMORY_MB: 1.5, DISK_GB: 1 },
      defaultArchitecture: "",
    });
    const effective = effectiveServerConfig({
      "instances.placement.scriptlet": scriptlet,
      "instances.placement.scriptlet.timeout_ms": "100",
      "scheduler.ram_allocation_ratio": "2.0",
      "cluster.offline_threshold": "",
    });
    expect(effective.scriptlet).toBe(scriptlet);
    expect(effective.scriptletLimits.timeoutMs).toBe(100);
    expect(effective.allocationRatios.MEMORY_MB).toBe(2);
    expect(effective.offlineThresholdSeconds).toBe(20);
    expect(serverConfigDefault("cluster.offline_threshold")).toBe("20");
    expect(serverConfigDefault("nope")).toBeUndefined();
  });
});

describe("Server (GET /1.0)", () => {
  const server = {
    api_extensions: ["instances_placement_scriptlet", "instances_placement_scriptlet_rebalance"],
    api_status: "stable",
    api_version: "1.0",
    auth: "trusted",
    auth_user_name: "team",
    auth_user_method: "bearer",
    auth_user_projects: ["team"],
    public: false,
    config: { "cluster.offline_threshold": "20" },
    environment: {
      server: "berth",
      server_name: "berth-1",
      server_version: "0.1.0",
      server_clustered: true,
      architectures: ["x86_64"],
      server_event_mode: "full-mesh",
    },
  };

  it("accepts the server document", () => {
    expect(parseBody(ServerSchema, server)).toEqual({ ok: true, value: server });
  });

  it("rejects a wrong api_version and unknown environment fields", () => {
    expect(errorOf(parseBody(ServerSchema, { ...server, api_version: "2.0" }))).toBe(
      'Invalid field "api_version": expected "1.0"',
    );
    expect(
      errorOf(parseBody(ServerSchema, { ...server, environment: { ...server.environment, kernel: "6.1" } })),
    ).toBe('Unknown field "environment.kernel"');
  });
});

describe("core.https_address (LXD's forms)", () => {
  it("reads HOST:PORT, [IPV6]:PORT, :PORT (every address) and a bare host (port 8443)", () => {
    expect(parseHttpsAddress("10.0.0.5:9443")).toEqual({ host: "10.0.0.5", port: 9443 });
    expect(parseHttpsAddress("[::1]:8443")).toEqual({ host: "::1", port: 8443 });
    expect(parseHttpsAddress(":8443")).toEqual({ host: "::", port: 8443 });
    expect(parseHttpsAddress("berth.example.com")).toEqual({ host: "berth.example.com", port: 8443 });
    for (const bad of ["", ":", "a b:1", "host:99999", "host:0", "[::1"])
      expect(parseHttpsAddress(bad), bad).toBeUndefined();
    expect(checkServerConfigValue("core.https_address", ":8443")).toBeUndefined();
    expect(checkServerConfigValue("core.https_address", "x:y")).toBe(
      'must be an address such as ":8443", "10.0.0.5:8443" or "[::1]:8443"',
    );
  });
});
