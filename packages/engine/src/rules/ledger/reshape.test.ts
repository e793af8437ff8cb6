import { describe, expect, it } from "vitest";
import { EngineError } from "../../base/errors.js";
import type { ConsumerWrite } from "../../store/port.js";
import type { ConsumerRecord } from "../../store/records.js";
import { inventory } from "../../testing/fixtures.js";
import { checkReshape, type ReshapeProviderRows } from "./reshape.js";

const consumer = (uuid: string, member: string, resourceClass: string, amount: number): ConsumerRecord => ({
  uuid,
  projectId: "p",
  userId: "u",
  consumerType: null,
  generation: 1,
  allocations: [{ member, resourceClass, ledger: "used", amount }],
  createdAt: "",
  updatedAt: "",
});
const write = (record: ConsumerRecord, allocations = record.allocations): ConsumerWrite => ({
  record: { ...record, allocations },
  expectedGeneration: record.generation,
});
const rows = (generation: number, inventories: ReshapeProviderRows["inventories"], used = {}) => ({
  generation,
  inventories,
  used,
  forthcoming: {},
});

function refusal(run: () => unknown): EngineError {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return error;
  }
  throw new Error("expected a refusal");
}

describe("checkReshape", () => {
  const disk = consumer("c0", "cn", "DISK_GB", 1000);
  const providers = new Map([["cn", rows(5, { DISK_GB: inventory(2048) }, { DISK_GB: 1000 })]]);
  const consumers = new Map([["c0", disk]]);

  it("judges every written allocation against the new inventory, not only grown ones", () => {
    const smaller = [
      { provider: "cn", expectedGeneration: 5, inventories: { DISK_GB: inventory(2048, { maxUnit: 600 }) } },
    ];
    const error = refusal(() =>
      checkReshape(
        { inventories: smaller, writes: [write(disk)] },
        { consumers, providers, instances: new Set<string>() },
        "",
      ),
    );
    expect(error.details).toMatchObject({ reason: "constraints" });
    // Left out of the writes, the same allocation stays (Placement does not re-judge it).
    const kept = checkReshape(
      { inventories: smaller, writes: [] },
      { consumers, providers, instances: new Set<string>() },
      "",
    );
    expect(kept.providers).toEqual([{ uuid: "cn", generation: 7, inventories: smaller[0]?.inventories }]);
  });

  it("moves a provider written only by a consumer's removal, as Placement's zeroed allocations do", () => {
    const gone = checkReshape(
      {
        inventories: [{ provider: "cn", expectedGeneration: 5, inventories: {} }],
        writes: [write(disk, [])],
      },
      { consumers, providers, instances: new Set<string>() },
      "",
    );
    // Emptied allocations, then the final (empty) inventory: no interim step.
    expect(gone.providers).toEqual([{ uuid: "cn", generation: 7, inventories: {} }]);
    expect(gone.consumers.deleted).toEqual(["c0"]);
  });

  it("refuses a stale generation with Placement's numbers", () => {
    const error = refusal(() =>
      checkReshape(
        { inventories: [{ provider: "cn", expectedGeneration: 4, inventories: {} }], writes: [] },
        { consumers, providers, instances: new Set<string>() },
        "",
      ),
    );
    expect(error.message).toBe("resource provider generation conflict for provider cn: actual: 5, given: 4");
  });
});
