import { describe, expect, it } from "vitest";
import { parseExtraSpecs, pythonInt, validateExtraSpecs } from "./extra-specs.js";

function messageOf(specs: Record<string, unknown>, options = {}): string {
  const result = validateExtraSpecs(specs, options);
  if (result.ok) throw new Error("expected a failure");
  return result.error.message;
}

describe("validateExtraSpecs: what Nova's API accepts", () => {
  it("accepts resources, traits and group_policy in every group form", () => {
    const specs = {
      "resources:VCPU": "0",
      "resources:CUSTOM_BAREMETAL_GOLD": "1",
      "resources1:VGPU": "1",
      "resources_NET-1:SRIOV_NET_VF": " +2 ",
      "resources2:MEMORY_MB": "1_024",
      "resources3:DISK_GB": "0",
      "trait:HW_CPU_X86_AVX2": "required",
      "trait3:CUSTOM_GOLD": "forbidden",
      group_policy: "none",
      "hw:cpu_policy": "dedicated",
      "aggregate_instance_extra_specs:ssd": "true",
      no_namespace_at_all: "anything",
    };
    expect(validateExtraSpecs(specs)).toEqual({ ok: true, value: specs });
  });

  it("stringifies numbers", () => {
    expect(validateExtraSpecs({ "resources:VCPU": 4 })).toEqual({
      ok: true,
      value: { "resources:VCPU": "4" },
    });
  });

  it.each([
    ["resources:VCPU", "x", "Validation failed; 'x' is not a valid integer value."],
    ["resources:VCPU", "-1", "Validation failed; '-1' is less than the min value of '0'."],
    ["resources3:DISK_GB", -2, "Validation failed; '-2' is less than the min value of '0'."],
    ["resources:CUSTOM_FPGA", "-1", "Validation failed; '-1' is less than the min value of '1'."],
    ["resources1:CUSTOM_FPGA", "0", "Validation failed; '0' is less than the min value of '1'."],
    ["resources1:CUSTOM_GOLD", "1.5", "Validation failed; '1.5' is not a valid integer value."],
    ["resources:MEMORY_MB", "", "Validation failed; '' is not a valid integer value."],
    ["resources:MEMORY_MB", "1__0", "Validation failed; '1__0' is not a valid integer value."],
    ["resources:VCPU", 2.5, "Validation failed; '2.5' is not a valid integer value."],
    ["trait:CUSTOM_GOLD", "yes", "Validation failed; 'yes' is not one of: required, forbidden."],
    [
      "trait2:HW_CPU_X86_AVX2",
      "Required",
      "Validation failed; 'Required' is not one of: required, forbidden.",
    ],
    ["group_policy", "bogus", "Validation failed; 'bogus' is not one of: isolate, none."],
    [
      "resources:FOO",
      "1",
      "Validation failed; extra spec 'resources:FOO' does not appear to be a valid extra spec.",
    ],
    [
      "resources:vcpu",
      "1",
      "Validation failed; extra spec 'resources:vcpu' does not appear to be a valid extra spec.",
    ],
    [
      "resources:CUSTOM_",
      "1",
      "Validation failed; extra spec 'resources:CUSTOM_' does not appear to be a valid extra spec.",
    ],
    [
      "trait:lower",
      "required",
      "Validation failed; extra spec 'trait:lower' does not appear to be a valid extra spec.",
    ],
    [
      "trait1:",
      "required",
      "Validation failed; extra spec 'trait1:' does not appear to be a valid extra spec.",
    ],
  ])("%j = %j", (key, value, message) => {
    const result = validateExtraSpecs({ [key]: value });
    expect(result).toEqual({ ok: false, error: { kind: "invalid-extra-spec", key, value, message } });
  });

  it("with the trait registry, unknown standard traits are not valid extra specs", () => {
    const known = new Set(["HW_CPU_X86_AVX2"]);
    const options = { isStandardTrait: (name: string) => known.has(name) };
    expect(validateExtraSpecs({ "trait:HW_CPU_X86_AVX2": "required" }, options).ok).toBe(true);
    expect(messageOf({ "trait:NOT_A_TRAIT": "required" }, options)).toBe(
      "Validation failed; extra spec 'trait:NOT_A_TRAIT' does not appear to be a valid extra spec.",
    );
    expect(validateExtraSpecs({ "trait:CUSTOM_ANYTHING": "forbidden" }, options).ok).toBe(true);
  });

  it("a 65-character group is no known namespace: the API lets it through and the scheduler ignores it", () => {
    const key = `resources${"a".repeat(65)}:VCPU`;
    expect(validateExtraSpecs({ [key]: "x" }).ok).toBe(true);
    expect(parseExtraSpecs({ [key]: "1" }).groups.size).toBe(0);
    expect(validateExtraSpecs({ [`resources${"a".repeat(64)}:VCPU`]: "1" }).ok).toBe(true);
  });

  it("keys must match Nova's key schema", () => {
    expect(messageOf({ "bad/key": "1" })).toBe(
      "Invalid input for field/attribute extra_specs. 'bad/key' does not match any of the regexes: '^[a-zA-Z0-9-_:. ]{1,255}$'",
    );
    expect(messageOf({ "": "1" })).toContain("does not match any of the regexes");
    expect(messageOf({ ["k".repeat(256)]: "1" })).toContain("does not match any of the regexes");
  });

  it("values must be strings or numbers of at most 255 characters", () => {
    expect(messageOf({ "hw:x": true })).toBe(
      "Invalid input for field/attribute hw:x. Value: true. true is not of type 'string', 'number'",
    );
    expect(messageOf({ "hw:x": null })).toContain("is not of type 'string', 'number'");
    expect(messageOf({ "hw:x": { a: 1 } })).toContain("is not of type 'string', 'number'");
    expect(messageOf({ "hw:x": Number.POSITIVE_INFINITY })).toContain("is not of type 'string', 'number'");
    expect(messageOf({ "hw:x": "v".repeat(256) })).toContain("is too long");
    expect(validateExtraSpecs({ "hw:x": "v".repeat(255) }).ok).toBe(true);
  });
});

describe("pythonInt", () => {
  it.each([
    ["0", 0],
    ["42", 42],
    [" 7 ", 7],
    ["+3", 3],
    ["-3", -3],
    ["1_000", 1000],
    ["007", 7],
  ])("int(%j) = %i", (text, value) => {
    expect(pythonInt(text)).toBe(value);
  });

  it.each(["", " ", "1.0", "1e3", "0x10", "_1", "1_", "1__0", "one", "+ 1"])("int(%j) raises", (text) => {
    expect(pythonInt(text)).toBeUndefined();
  });
});

describe("parseExtraSpecs: Nova's lenient scheduler reading", () => {
  it("groups by suffix, later keys overwrite, bad entries warn", () => {
    const parsed = parseExtraSpecs({
      "resources:VCPU": "2",
      "resources:VCPU ": "ignored: not a class name",
      "resources1:CUSTOM_X": "1",
      "resources1:CUSTOM_X:": "3",
      "resources:DOESNT_EXIST": "0",
      "resources:MEMORY_MB": "-5",
      "resources2:DISK_GB": "many",
      "trait:CUSTOM_A": "required",
      "trait:CUSTOM_B": "forbidden",
      "trait:CUSTOM_C": "preferred",
      group_policy: "sometimes",
      "some:bogus": "value",
    });
    expect([...parsed.groups.keys()]).toEqual(["", "1"]);
    expect(parsed.groups.get("")?.resources).toEqual({ VCPU: 2 });
    // Nova's scheduler only tests the CUSTOM_ prefix, so a legacy key with a stray colon still asks for
    // a (non-existent) class; the API validation refuses such keys when a flavor is written.
    expect(parsed.groups.get("1")?.resources).toEqual({ CUSTOM_X: 1, "CUSTOM_X:": 3 });
    expect([...(parsed.groups.get("")?.required_traits ?? [])]).toEqual(["CUSTOM_A"]);
    expect([...(parsed.groups.get("")?.forbidden_traits ?? [])]).toEqual(["CUSTOM_B"]);
    expect(parsed.group_policy).toBeUndefined();
    expect(parsed.warnings).toEqual([
      "Received an invalid ResourceClass 'VCPU ' in extra_specs.",
      "Received an invalid ResourceClass 'DOESNT_EXIST' in extra_specs.",
      "Resource amounts must be nonnegative integers. Received '-5' for key resources.",
      "Resource amounts must be nonnegative integers. Received 'many' for key resources2.",
      "Only (required, forbidden) traits are supported. Received 'preferred'.",
      "Invalid group_policy 'sometimes'. Valid values are 'none' and 'isolate'.",
    ]);
  });

  it("the last of repeated class keys wins", () => {
    const parsed = parseExtraSpecs({ "resources:VCPU": "2", "resources:PCPU": "1", group_policy: "isolate" });
    expect(parsed.groups.get("")?.resources).toEqual({ VCPU: 2, PCPU: 1 });
    expect(parsed.group_policy).toBe("isolate");
  });
});
