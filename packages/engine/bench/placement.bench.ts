import { bench, describe } from "vitest";
import { ManualClock } from "../src/base/clock.js";
import { MemoryStore } from "../src/memory-store/memory-store.js";
import { Engine } from "../src/services/engine.js";

// One placement against 1,000 members that already hold 20,000 instances.
// The engine never reads instance rows to decide, so the cost is flat in the
// instance count (targets: p50 <= 1 ms default policy, <= 3 ms
// with a scriptlet reading every candidate's state).
const MEMBERS = 1000;
const EXISTING = 20_000;

async function cluster(): Promise<Engine> {
  const engine = await Engine.open({ store: new MemoryStore(), clock: new ManualClock() });
  for (let i = 0; i < MEMBERS; i++) {
    await engine.createMember({
      name: `m${i}`,
      inventories: { VCPU: { total: 4096 }, MEMORY_MB: { total: 16 * 1024 * 1024 } },
      state: { sysinfo: { free_ram: ((i * 7919) % 1000) * 1048576 }, storage_pools: {} },
    });
  }
  for (let done = 0; done < EXISTING; done += 10_000) {
    await engine.bulkCreate(
      Array.from({ length: 10_000 }, (_, i) => ({
        name: `x${done + i}`,
        config: { "limits.memory": "256MiB" },
      })),
    );
  }
  return engine;
}

const plain = await cluster();
const scripted = await cluster();
await scripted.setConfig({
  "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    best = None
    best_free = -1
    for candidate in candidate_members:
        free = get_cluster_member_state(candidate.server_name).sysinfo.free_ram
        if free > best_free:
            best = candidate.server_name
            best_free = free
    set_target(best)
`,
});
let counter = 0;

describe(`one placement, ${MEMBERS} members, ${EXISTING} instances`, () => {
  bench("default policy (create + claim)", async () => {
    await plain.createInstance({ name: `p${++counter}`, config: { "limits.memory": "256MiB" } });
  });
  bench("dry run, default policy (full candidate list)", async () => {
    await plain.dryRun({ name: `d${++counter}`, config: { "limits.memory": "256MiB" } });
  });
  bench("scriptlet reading get_cluster_member_state of every candidate", async () => {
    await scripted.createInstance({ name: `s${++counter}`, config: { "limits.memory": "256MiB" } });
  });
});
