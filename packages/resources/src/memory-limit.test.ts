import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildInstanceRequest, type InstanceRequestInput, onMember } from "./instance-request.js";
import { computeInstanceDemand, computeInstanceResources, memorySizeOn } from "./instance-resources.js";
import { memberMemoryBytes, parseMemoryLimit, resolveMemoryPercentage } from "./memory-limit.js";
import { GiB, MiB } from "./sizes.js";

describe("parseMemoryLimit: LXD's limits.memory validator", () => {
  it.each([
    ["50%", { kind: "percentage", percent: 50 }],
    ["+7%", { kind: "percentage", percent: 7 }],
    ["150%", { kind: "percentage", percent: 150 }],
    ["512MiB", { kind: "size", bytes: 512 * MiB }],
    ["", { kind: "size", bytes: 0 }],
  ] as const)("%s is valid", (input, expected) => {
    expect(parseMemoryLimit(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ["abc%", 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ["%", 'strconv.ParseInt: parsing "": invalid syntax'],
    ["5.5%", 'strconv.ParseInt: parsing "5.5": invalid syntax'],
    [" 5%", 'strconv.ParseInt: parsing " 5": invalid syntax'],
    ["0%", "Memory limit can't be 0%"],
    ["-0%", "Memory limit can't be 0%"],
    ["-5%", "Memory limit can't be a negative percentage of the host's memory"],
    ["99999999999999999999%", 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ["9007199254740993%", 'strconv.ParseInt: parsing "9007199254740993": value out of range'],
  ])("%s is refused: %s", (input, message) => {
    const parsed = parseMemoryLimit(input);
    expect(parsed).toEqual({ ok: false, error: { kind: "invalid-memory-percentage", input, message } });
  });

  it("a size that is not one keeps the size parser's error", () => {
    const parsed = parseMemoryLimit("lots");
    expect(!parsed.ok && parsed.error).toMatchObject({
      kind: "invalid-size",
      message: "Invalid value: lots",
    });
  });
});

describe("resolving a share on a member", () => {
  it("divides first, as LXD's (MemTotal / 100) * percent", () => {
    expect(resolveMemoryPercentage(50, 8 * GiB)).toBe(4 * GiB - 46);
    expect(resolveMemoryPercentage(50, 8 * GiB + 99)).toBe(Math.floor((8 * GiB + 99) / 100) * 50);
    expect(resolveMemoryPercentage(100, 1000)).toBe(1000);
    expect(resolveMemoryPercentage(150, 1000)).toBe(1500);
  });

  it("never exceeds the exact share (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 100 }),
        (total, percent) => {
          const resolved = resolveMemoryPercentage(percent, total);
          return resolved <= (total * percent) / 100 && resolved > (total * percent) / 100 - percent;
        },
      ),
    );
  });

  it("takes the member's reported memory, else its MEMORY_MB inventory", () => {
    expect(memberMemoryBytes({ memory: { total: 123456789 } }, 4096)).toBe(123456789);
    expect(memberMemoryBytes({ memory: { total: 0 } }, 4096)).toBe(4096 * MiB);
    expect(memberMemoryBytes({ memory: { total: "8GiB" } }, 4096)).toBe(4096 * MiB);
    expect(memberMemoryBytes({ memory: null }, 2)).toBe(2 * MiB);
    expect(memberMemoryBytes({ cpu: {} }, undefined)).toBeUndefined();
    expect(memberMemoryBytes(null, undefined)).toBeUndefined();
  });
});

const container = (memory: string, extra: Partial<InstanceRequestInput> = {}): InstanceRequestInput => ({
  type: "container",
  config: { "limits.cpu": "2", "limits.memory": memory },
  devices: { root: { type: "disk", path: "/", size: "10GiB" } },
  ...extra,
});

function built(input: InstanceRequestInput) {
  const result = buildInstanceRequest(input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("a request whose memory is a share", () => {
  it("leaves MEMORY_MB to the member and resolves it there", () => {
    const request = built(container("50%"));
    expect(request.memory_share).toEqual({ percent: 50, requested: true });
    expect(request.request.resources).toEqual({ DISK_GB: 10, VCPU: 2 });
    expect(request.instance_resources.memory_size).toBe(0);
    const on8 = onMember(request.request.resources, request.memory_share, 8 * GiB);
    expect(on8.resources).toEqual({ DISK_GB: 10, MEMORY_MB: 4096, VCPU: 2 });
    expect(Object.keys(on8.resources)).toEqual(["DISK_GB", "MEMORY_MB", "VCPU"]);
    expect(on8.memory_size).toBe(resolveMemoryPercentage(50, 8 * GiB));
    expect(onMember(request.request.resources, request.memory_share, 2 * GiB).resources.MEMORY_MB).toBe(1024);
  });

  it("asks a member of unknown memory for at least 1 MiB (so it is turned down for lacking MEMORY_MB)", () => {
    const request = built(container("50%"));
    const unknown = onMember(request.request.resources, request.memory_share, undefined);
    expect(unknown).toEqual({ resources: { DISK_GB: 10, MEMORY_MB: 1, VCPU: 2 }, memory_size: 0 });
  });

  it("a size stays the same object on every member", () => {
    const request = built(container("1GiB"));
    expect(request.memory_share).toBeNull();
    expect(onMember(request.request.resources, null, 8 * GiB).resources).toBe(request.request.resources);
  });

  it("a flavor's MEMORY_MB extra spec wins over the share", () => {
    const flavor = { vcpus: 1, memory_mb: 512, disk_gb: 0, extra_specs: { "resources:MEMORY_MB": "0" } };
    const request = built(container("25%", { flavor }));
    expect(request.memory_share).toEqual({ percent: 25, requested: false });
    const on = onMember(request.request.resources, request.memory_share, 4 * GiB);
    expect(on.resources).toBe(request.request.resources);
    expect(on.resources.MEMORY_MB).toBeUndefined();
    expect(on.memory_size).toBe(GiB - 24);
  });

  it("refuses a malformed share with the validator's text", () => {
    const result = buildInstanceRequest(container("abc%"));
    expect(!result.ok && result.error.message).toBe(
      'Failed parsing instance resources limits.memory: strconv.ParseInt: parsing "abc": invalid syntax',
    );
  });
});

describe("computeInstanceResources with a member", () => {
  it("resolves a share against the member's memory", () => {
    const instance = { type: "container" as const, config: { "limits.memory": "50%" }, devices: {} };
    expect(computeInstanceResources(instance, { memberMemory: 4 * GiB })).toEqual({
      ok: true,
      value: { cpu_cores: 0, memory_size: resolveMemoryPercentage(50, 4 * GiB), root_disk_size: 0 },
    });
    const demand = computeInstanceDemand(instance);
    expect(demand.ok && demand.value.memory).toEqual({ kind: "percentage", percent: 50 });
  });

  it("a share of unknown memory is 0 bytes; a size is itself anywhere", () => {
    expect(memorySizeOn({ kind: "percentage", percent: 50 }, undefined)).toBe(0);
    expect(memorySizeOn({ kind: "size", bytes: 7 }, 100)).toBe(7);
  });
});
