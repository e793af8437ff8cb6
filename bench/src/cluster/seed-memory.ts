import { Engine, type EngineOptions, MemoryStore, type Store } from "@berth/engine";
import { CUSTOM_CLASSES, PROJECTS } from "./catalog.js";
import { instanceSpec } from "./instance-spec.js";
import { memberSpec } from "./member-spec.js";
import { BENCH_OFFLINE_THRESHOLD_S, type ClusterShape } from "./shape.js";

/** Instances per claim while seeding: big enough to be quick, small enough to bound the claim's garbage. */
const SEED_BATCH = 10_000;

/**
 * Projects (each with its `default` profile), the custom classes and the
 * bench config: what every generated cluster has before members join.
 */
export async function seedCatalog(store: Store): Promise<void> {
  for (const project of PROJECTS) {
    if ((await store.projects.get({ name: project })) === undefined) {
      await store.projects.create({ name: project, description: "", config: {} });
    }
    if ((await store.profiles.get({ project, name: "default" })) === undefined) {
      await store.profiles.create({ project, name: "default", description: "", config: {}, devices: {} });
    }
  }
  for (const name of Object.values(CUSTOM_CLASSES)) {
    if ((await store.resourceClasses.get({ name })) === undefined) {
      await store.resourceClasses.create({ name, custom: true });
    }
  }
  await store.setConfig({ "cluster.offline_threshold": BENCH_OFFLINE_THRESHOLD_S });
}

/**
 * A hydrated engine over an in-memory store holding the cluster. Members and
 * instances go straight through the Store port (instances as large claims,
 * so the store still checks every allocation against capacity); the
 * engine then hydrates from the store's snapshot exactly as at start-up.
 */
export async function seedMemoryEngine(
  shape: ClusterShape,
  options: Omit<EngineOptions, "store"> = {},
): Promise<Engine> {
  const store = new MemoryStore();
  const engine = await Engine.open({ store, ...options });
  await seedCatalog(store);
  const heartbeatAt = new Date().toISOString();
  for (let index = 1; index <= shape.members; index++) {
    await store.createMember(memberSpec(index, heartbeatAt));
  }
  for (let start = 0; start < shape.instances; start += SEED_BATCH) {
    const end = Math.min(shape.instances, start + SEED_BATCH);
    const create = [];
    for (let n = start; n < end; n++) create.push(instanceSpec(n, shape.members));
    await store.claim({ create });
  }
  await engine.refresh();
  return engine;
}
