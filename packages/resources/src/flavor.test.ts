import { describe, expect, it } from "vitest";
import { type FlavorInput, validateFlavor } from "./flavor.js";

describe("validateFlavor", () => {
  it("accepts a flavor and defaults disk_gb and extra_specs", () => {
    expect(validateFlavor({ vcpus: 2, memory_mb: 4096 })).toEqual({
      ok: true,
      value: { vcpus: 2, memory_mb: 4096, disk_gb: 0, extra_specs: {} },
    });
  });

  it("validates and stringifies extra specs", () => {
    const result = validateFlavor({
      vcpus: 1,
      memory_mb: 1024,
      disk_gb: 10,
      extra_specs: { "resources:CUSTOM_BAREMETAL_GOLD": 1, "resources:VCPU": "0" },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        vcpus: 1,
        memory_mb: 1024,
        disk_gb: 10,
        extra_specs: { "resources:CUSTOM_BAREMETAL_GOLD": "1", "resources:VCPU": "0" },
      },
    });
  });

  it("refuses an invalid extra spec with Nova's text", () => {
    const result = validateFlavor({ vcpus: 1, memory_mb: 1, extra_specs: { "resources:VCPU": "x" } });
    expect(!result.ok && result.error.message).toBe("Validation failed; 'x' is not a valid integer value.");
  });

  it.each([
    [
      { vcpus: 0, memory_mb: 1 },
      "vcpus",
      "Invalid input for field/attribute vcpus. Value: 0. 0 is less than the minimum of 1",
    ],
    [
      { vcpus: 1, memory_mb: 0 },
      "memory_mb",
      "Invalid input for field/attribute memory_mb. Value: 0. 0 is less than the minimum of 1",
    ],
    [
      { vcpus: 1, memory_mb: 1, disk_gb: -1 },
      "disk_gb",
      "Invalid input for field/attribute disk_gb. Value: -1. -1 is less than the minimum of 0",
    ],
    [
      { vcpus: 2147483648, memory_mb: 1 },
      "vcpus",
      "Invalid input for field/attribute vcpus. Value: 2147483648. 2147483648 is greater than the maximum of 2147483647",
    ],
    [
      { vcpus: "2", memory_mb: 1 },
      "vcpus",
      "Invalid input for field/attribute vcpus. Value: 2. '2' is not of type 'integer'",
    ],
    [
      { vcpus: 1, memory_mb: 1.5 },
      "memory_mb",
      "Invalid input for field/attribute memory_mb. Value: 1.5. 1.5 is not of type 'integer'",
    ],
    [
      { vcpus: 1, memory_mb: 1, disk_gb: "10" },
      "disk_gb",
      "Invalid input for field/attribute disk_gb. Value: 10. '10' is not of type 'integer'",
    ],
  ] as [FlavorInput, string, string][])("%j: %s", (input, field, message) => {
    const result = validateFlavor(input);
    expect(result).toEqual({
      ok: false,
      error: { kind: "invalid-flavor-field", field, value: (input as never)[field], message },
    });
  });
});
