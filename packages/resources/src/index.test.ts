import { describe, expect, it } from "vitest";
import * as resources from "./index.js";

describe("@berth/resources public API", () => {
  it("exports the functions and constants the engine uses", () => {
    const exported: Record<string, unknown> = { ...resources };
    for (const name of [
      "buildInstanceRequest",
      "applyInstanceSizing",
      "computeInstanceResources",
      "buildRequest",
      "requestFromNovaFlavor",
      "toPlacementQuery",
      "checkFit",
      "fitsWithBothLedgers",
      "addAllocation",
      "subtractAllocation",
      "commitForthcoming",
      "deriveMemberInventories",
      "reportedCapacity",
      "rootDiskPools",
      "capacityReportHint",
      "normalizeInventory",
      "inventoryCapacity",
      "parseByteSize",
      "formatByteSizeExact",
      "parseCpuLimit",
      "parseInstanceType",
      "validateFlavor",
      "validateExtraSpecs",
      "validateCustomName",
    ] as const) {
      expect(typeof exported[name]).toBe("function");
    }
    expect(resources.STANDARD_RESOURCE_CLASSES).toHaveLength(21);
    expect(resources.FIT_OK).toEqual({ ok: true });
    expect(resources.ok(1)).toEqual({ ok: true, value: 1 });
    expect(resources.err("x")).toEqual({ ok: false, error: "x" });
  });
});
