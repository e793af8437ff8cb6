import { describe, expect, it } from "vitest";
import {
  isCustomResourceClass,
  isStandardResourceClass,
  isWellFormedResourceClass,
  MIN_CUSTOM_RESOURCE_CLASS_ID,
  normalizeCustomName,
  resourceClassMessages,
  STANDARD_RESOURCE_CLASSES,
  standardResourceClassId,
  validateCustomName,
} from "./resource-classes.js";

describe("standard resource classes", () => {
  it("are the 21 os-resource-classes names in id order", () => {
    expect(STANDARD_RESOURCE_CLASSES).toHaveLength(21);
    expect(STANDARD_RESOURCE_CLASSES.slice(0, 3)).toEqual(["VCPU", "MEMORY_MB", "DISK_GB"]);
    expect(standardResourceClassId("VCPU")).toBe(0);
    expect(standardResourceClassId("PCPU")).toBe(14);
    expect(standardResourceClassId("NET_PACKET_RATE_IGR_KILOPACKET_PER_SEC")).toBe(20);
    expect(standardResourceClassId("CUSTOM_GOLD")).toBeUndefined();
    expect(MIN_CUSTOM_RESOURCE_CLASS_ID).toBe(10000);
  });

  it.each(STANDARD_RESOURCE_CLASSES.map((name, id) => [name, id] as const))("%s has id %i", (name, id) => {
    expect(isStandardResourceClass(name)).toBe(true);
    expect(standardResourceClassId(name)).toBe(id);
    expect(isCustomResourceClass(name)).toBe(false);
  });

  it("tells custom and well-formed names apart", () => {
    expect(isStandardResourceClass("CUSTOM_GOLD")).toBe(false);
    expect(isCustomResourceClass("CUSTOM_GOLD")).toBe(true);
    expect(isWellFormedResourceClass("CUSTOM_GOLD")).toBe(true);
    expect(isWellFormedResourceClass("VCPU")).toBe(true);
    expect(isWellFormedResourceClass("vcpu")).toBe(false);
    expect(isWellFormedResourceClass("")).toBe(false);
    expect(isWellFormedResourceClass(`CUSTOM_${"A".repeat(249)}`)).toBe(false);
  });
});

describe("validateCustomName", () => {
  it("accepts CUSTOM_ names up to 255 characters", () => {
    const longest = `CUSTOM_${"A".repeat(248)}`;
    expect(longest).toHaveLength(255);
    expect(validateCustomName(longest)).toEqual({ ok: true, value: longest });
    expect(validateCustomName("CUSTOM_BAREMETAL_GOLD")).toEqual({ ok: true, value: "CUSTOM_BAREMETAL_GOLD" });
  });

  it.each(["VCPU", "CUSTOM_", "custom_gold", "CUSTOM_gold", "CUSTOM-GOLD", "GOLD", ""])(
    "refuses %j with Placement's pattern failure",
    (name) => {
      const result = validateCustomName(name);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.kind).toBe("name-pattern");
      expect(result.error.message).toContain("JSON does not validate");
      expect(result.error.message).toContain("Failed validating 'pattern'");
      expect(result.error.message).toContain(`'${name}' does not match '^CUSTOM_[A-Z0-9_]+$'`);
    },
  );

  it("refuses 256 characters with Placement's maxLength failure", () => {
    const result = validateCustomName(`CUSTOM_${"A".repeat(249)}`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe("name-too-long");
    expect(result.error.message).toContain("JSON does not validate");
    expect(result.error.message).toContain("Failed validating 'maxLength'");
  });
});

describe("normalizeCustomName", () => {
  it.each([
    ["baremetal-gold", "CUSTOM_BAREMETAL_GOLD"],
    ["baremetal.with-GPU", "CUSTOM_BAREMETAL_WITH_GPU"],
    ["a--b  c", "CUSTOM_A_B_C"],
    ["CUSTOM_X", "CUSTOM_CUSTOM_X"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizeCustomName(input)).toBe(expected);
  });
});

describe("resourceClassMessages", () => {
  it("renders Placement's texts", () => {
    expect(resourceClassMessages.conflict("CUSTOM_X")).toBe(
      "Conflicting resource class already exists: CUSTOM_X",
    );
    expect(resourceClassMessages.cannotDeleteStandard("VCPU")).toBe(
      "Cannot delete standard resource class VCPU",
    );
    expect(resourceClassMessages.cannotUpdateStandard("VCPU")).toBe(
      "Cannot update standard resource class VCPU",
    );
    expect(resourceClassMessages.inUse("CUSTOM_X")).toContain("Class is in use in inventory");
    expect(resourceClassMessages.notFound("CUSTOM_PONY")).toBe("No such resource class CUSTOM_PONY");
    expect(resourceClassMessages.renameConflict("CUSTOM_X")).toBe("Resource class already exists: CUSTOM_X");
  });
});
