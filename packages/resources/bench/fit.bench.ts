import { bench, describe } from "vitest";
import { checkFit } from "../src/fit.js";
import { buildInstanceRequest } from "../src/instance-request.js";
import { type Inventory, normalizeInventory } from "../src/inventory.js";
import { addAllocation, emptyUsage, fitsWithBothLedgers } from "../src/ledger.js";

// The engine runs a fit check per candidate member per placement; these
// measure that inner step and the once-per-placement request build.
function inventory(total: number, ratio = 1): Inventory {
  const result = normalizeInventory("X", { total, allocation_ratio: ratio });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const inventories = { VCPU: inventory(64, 4), MEMORY_MB: inventory(262144), DISK_GB: inventory(4000) };
const usage = emptyUsage();
addAllocation(usage, "used", { VCPU: 100, MEMORY_MB: 100000, DISK_GB: 1000 });
addAllocation(usage, "forthcoming", { VCPU: 10, MEMORY_MB: 8192 });
const request = { DISK_GB: 10, MEMORY_MB: 4096, VCPU: 2 };

describe("fit checks", () => {
  bench("checkFit (one class, fits)", () => {
    checkFit("VCPU", inventories.VCPU, 100, 2);
  });
  bench("fitsWithBothLedgers (3 classes, fits)", () => {
    fitsWithBothLedgers(inventories, usage, request);
  });
});

describe("request building", () => {
  bench("buildInstanceRequest (VM, flavor with extra specs)", () => {
    buildInstanceRequest({
      type: "virtual-machine",
      config: { "limits.memory": "4GiB" },
      devices: { root: { type: "disk", path: "/", pool: "default" } },
      flavor: { vcpus: 2, memory_mb: 4096, disk_gb: 10, extra_specs: { "resources:CUSTOM_GPU": "1" } },
    });
  });
});
