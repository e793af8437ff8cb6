import { rmSync } from "node:fs";
import { openStore } from "./open-store.ts";
import { instanceOf, inventoryOf, memberOf } from "./testing/records.fixture.ts";

for (const url of [":memory:"]) {
  rmSync("/tmp/prof.db", { force: true });
  rmSync("/tmp/prof.db-wal", { force: true });
  const t0 = performance.now();
  const store = await openStore(url);
  console.log("open", (performance.now() - t0).toFixed(1));
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.createMember(memberOf("a", { VCPU: inventoryOf(100000) }));
  let t = performance.now();
  for (let i = 0; i < 200; i++) await store.claim({ create: [instanceOf(`i${i}`, "a", { VCPU: 1 })] });
  console.log(url, "claim ms", ((performance.now() - t) / 200).toFixed(2));
  t = performance.now();
  for (let i = 0; i < 200; i++) await store.getConfigVersion();
  console.log(url, "read ms", ((performance.now() - t) / 200).toFixed(2));
  t = performance.now();
  await store.claim({
    create: Array.from({ length: 5000 }, (_, i) => instanceOf(`b${i}`, "a", { VCPU: 1 })),
  });
  console.log(url, "bulk 5000 ms", (performance.now() - t).toFixed(0));
  await store.close();
}
