import { describe, expect, it } from "vitest";
import type { EngineError } from "../../base/errors.js";
import { isRecordChanged } from "../../store/record-version.js";
import { newProviderRow } from "../ledger/member-root.js";
import { groupInUse, projectInUse, providerInUse, resourceClassInUse, traitInUse } from "./catalog-in-use.js";
import {
  catalogEntry,
  checkCatalogCreate,
  checkCatalogDelete,
  checkCatalogUpdate,
  requireCatalogRecord,
} from "./catalog-records.js";
import { checkProviderWrite, requireProject } from "./catalog-references.js";
import { customTraitsOf, requireCustomTraits } from "./provider-traits.js";

describe("catalog records", () => {
  it("names records by label and key, and announces the table", () => {
    expect(() => checkCatalogCreate("profiles", { project: "p", name: "web" }, true)).toThrow(
      'Profile "p/web" already exists',
    );
    expect(() => requireCatalogRecord("groups", { name: "gpu" }, undefined)).toThrow(
      'Cluster group "gpu" not found',
    );
    expect(() => checkCatalogDelete("traits", { name: "T" }, 'provider "u" has it')).toThrow(
      'Trait "T" is in use: provider "u" has it',
    );
    expect(catalogEntry("flavors")).toEqual({ kind: "catalog", table: "flavors" });
  });

  it("writes an update only over the version the caller read", () => {
    const stored = { name: "gpu", description: "a" };
    expect(() => checkCatalogUpdate("groups", { name: "gpu" }, stored, { ...stored })).not.toThrow();
    let error: unknown;
    try {
      checkCatalogUpdate("groups", { name: "gpu" }, stored, { name: "gpu", description: "b" });
    } catch (caught) {
      error = caught;
    }
    expect(isRecordChanged(error)).toBe(true);
  });
});

describe("in-use reasons", () => {
  it("say what still uses a record, in each table's order", () => {
    expect([groupInUse(0), groupInUse(2)]).toEqual([undefined, "2 member(s) belong to it"]);
    expect(projectInUse({ instances: 0, hasProfiles: true, hasPlacementGroups: true })).toBe(
      "it has profiles",
    );
    expect(resourceClassInUse({ memberInventory: false, providerInventory: "u", allocated: true })).toBe(
      'provider "u" has an inventory of it',
    );
    expect(providerInUse({ children: 0, allocated: true })).toBe("it has allocations");
    expect(traitInUse({ provider: undefined, member: undefined })).toBeUndefined();
    expect(traitInUse({ provider: undefined, member: "m1" })).toBe('member "m1" has it');
    expect(traitInUse({ provider: "u", member: "m1" })).toBe('provider "u" has it');
  });
});

describe("catalog references", () => {
  const provider = newProviderRow({ uuid: "u", name: "n", parentUuid: "p", rootUuid: "p" }, "");

  it("refuses a missing project, a held class dropped, a taken name, a missing parent, a missing trait", () => {
    expect(() => requireProject("p", false)).toThrow('Project "p" not found');
    const reads = { heldClasses: [], nameTaken: false, parentExists: true, foundTraits: new Set<string>() };
    expect(() => checkProviderWrite(provider, { ...reads, heldClasses: ["VCPU"] })).toThrow(
      'Inventory of VCPU on provider "u" is in use',
    );
    expect(() => checkProviderWrite(provider, { ...reads, nameTaken: true })).toThrow(
      'Resource provider name "n" is taken',
    );
    expect(() => checkProviderWrite(provider, { ...reads, parentExists: false })).toThrow(
      'Resource provider "p" not found',
    );
    const traited = { ...provider, traits: ["HW_CPU_X86_AVX2", "CUSTOM_A", "CUSTOM_B"] };
    expect(() => checkProviderWrite(traited, { ...reads, foundTraits: new Set(["CUSTOM_A"]) })).toThrow(
      "No such trait(s): CUSTOM_B.",
    );
    expect(() =>
      checkProviderWrite(traited, { ...reads, foundTraits: new Set(["CUSTOM_A", "CUSTOM_B"]) }),
    ).not.toThrow();
    expect(() => checkProviderWrite(provider, reads)).not.toThrow();
  });
});

describe("provider traits", () => {
  it("looks up only the non-standard traits, each once", () => {
    expect(customTraitsOf(["CUSTOM_A", "HW_CPU_X86_AVX2", "CUSTOM_A", "NOT_A_TRAIT"])).toEqual([
      "CUSTOM_A",
      "NOT_A_TRAIT",
    ]);
  });

  it("refuses with Placement's 400 naming every missing trait; standard traits always exist", () => {
    expect(() => requireCustomTraits(["HW_CPU_X86_AVX2"], new Set())).not.toThrow();
    const refused = (() => {
      try {
        requireCustomTraits(["CUSTOM_A", "CUSTOM_B", "CUSTOM_C"], new Set(["CUSTOM_B"]));
      } catch (error) {
        return error as EngineError;
      }
      throw new Error("expected a refusal");
    })();
    expect(refused.kind).toBe("invalid");
    expect(refused.message).toBe("No such trait(s): CUSTOM_A, CUSTOM_C.");
    expect(refused.details).toEqual({ reason: "trait_not_found", traits: ["CUSTOM_A", "CUSTOM_C"] });
  });
});
