/**
 * A consumer claim writes on the engine's model as it stands (no change-feed
 * read first): what another engine changed meanwhile still gets the answer a
 * caught-up model gives, through the feed read a refusal takes.
 */
import { describe, expect, it } from "vitest";
import { EngineError } from "../../base/errors.js";
import { testCluster } from "../../testing/cluster.fixture.js";

const claimOn = (consumerUuid: string, provider: string) => ({
  consumerUuid,
  projectId: "p",
  userId: "u",
  consumerType: "INSTANCE",
  allocations: { [provider]: { VCPU: 1 } },
  expectedGeneration: null,
});

/** Two engines on one store, and a provider with 4 VCPU both have read. */
async function twoEngines() {
  const { engine, store } = await testCluster();
  const other = (await testCluster({ store })).engine;
  const created = await engine.providers.create({ name: "cn1" });
  await engine.providers.setInventories(created.uuid, created.generation, { VCPU: { total: 4 } });
  await other.providers.list();
  return { engine, other, provider: created.uuid };
}

describe("a consumer claim on a model behind the store", () => {
  it("is refused in Placement's words when another engine deleted the provider", async () => {
    const { engine, other, provider } = await twoEngines();
    await engine.providers.delete(provider);
    const error = await other.consumers.allocate([claimOn("c1", provider)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toBe(
      `Allocation for resource provider '${provider}' that does not exist.`,
    );
  });

  it("is written when another engine created the provider a moment ago", async () => {
    const { engine, other } = await twoEngines();
    const fresh = await engine.providers.create({ name: "cn2" });
    await engine.providers.setInventories(fresh.uuid, fresh.generation, { VCPU: { total: 2 } });
    const [stored] = await other.consumers.allocate([claimOn("c2", fresh.uuid)]);
    expect(stored?.generation).toBe(1);
    expect(await engine.consumers.providerUsage(fresh.uuid)).toEqual({ VCPU: 1 });
  });

  it("keeps its own claims' usage and generations for the next reader", async () => {
    const { engine, provider } = await twoEngines();
    const before = await engine.providers.get(provider);
    await engine.consumers.allocate([claimOn("c3", provider)]);
    await engine.consumers.allocate([claimOn("c4", provider)]);
    const after = await engine.providers.get(provider);
    expect(after.generation).toBe(before.generation + 2);
    expect((await engine.providers.usage()).get(provider)).toEqual({ VCPU: 2 });
  });
});
