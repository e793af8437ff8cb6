/**
 * The Store contract for the custom traits a provider write sets
 * (rules/writes/provider-traits.ts): each must exist when the write
 * commits, judged in the write's transaction, so a trait deleted while a
 * provider (a catalog provider, or a member's root through Placement)
 * takes it is either refused to the delete (in use) or to the write (no
 * such trait), never lost from under the provider. Part of
 * `runStoreContract`.
 */
import { isStandardTrait } from "@berth/resources";
import { describe, expect, it } from "vitest";
import { newProviderRow } from "../../rules/ledger/member-root.js";
import type { Store } from "../../store/port.js";
import type { ProviderRecord } from "../../store/records.js";
import { newMember } from "../fixtures.js";
import { refusal } from "./contract-refusal.js";

const stamp = "2026-01-01T00:00:00.000Z";

/** A provider write that sets traits: on a catalog provider, or on a member's root. */
type TraitsWrite = (store: Store, traits: string[]) => Promise<unknown>;

async function setProviderTraits(store: Store, traits: string[]): Promise<unknown> {
  const current = (await store.providers.get({ name: "p1" })) as ProviderRecord;
  return store.providers.update({ ...current, traits, generation: current.generation + 1 }, current);
}

function setRootTraits(store: Store, traits: string[]): Promise<unknown> {
  return store.writeMemberRoot({ member: "m1", change: { kind: "traits", traits } });
}

const writes: [string, TraitsWrite][] = [
  ["a catalog provider", setProviderTraits],
  ["a member's root", setRootTraits],
];

/** Every trait a provider or a member holds that is neither standard nor stored. */
async function heldButMissing(store: Store): Promise<string[]> {
  const stored = new Set((await store.traits.list()).map((trait) => trait.name));
  const held = [
    ...(await store.providers.list()).flatMap((provider) => provider.traits),
    ...(await store.listMembers()).flatMap((member) => member.traits),
  ];
  return held.filter((name) => !isStandardTrait(name) && !stored.has(name));
}

export function describeProviderTraits(store: () => Store): void {
  describe("the custom traits a provider write sets", () => {
    async function setUp(): Promise<void> {
      await store().createMember(newMember("m1"));
      await store().providers.create(
        newProviderRow({ uuid: "p1", name: "p1", parentUuid: null, rootUuid: "p1" }, stamp),
      );
    }

    for (const [what, write] of writes) {
      it(`${what}: refuses a custom trait that is not stored, with Placement's text`, async () => {
        await setUp();
        await store().traits.create({ name: "CUSTOM_KEPT", createdAt: stamp });
        const refused = await refusal(write(store(), ["CUSTOM_KEPT", "CUSTOM_GONE", "HW_CPU_X86_AVX2"]));
        expect(refused.kind).toBe("invalid");
        expect(refused.message).toBe("No such trait(s): CUSTOM_GONE.");
        expect(await heldButMissing(store())).toEqual([]);
        await write(store(), ["CUSTOM_KEPT", "HW_CPU_X86_AVX2"]);
        expect(await heldButMissing(store())).toEqual([]);
      });

      it(`${what}: exactly one of a trait's delete and a write giving it the trait wins`, async () => {
        await setUp();
        const trait = { name: "CUSTOM_RACE", createdAt: stamp };
        await store().traits.create(trait);
        for (let round = 0; round < 16; round++) {
          // Alternate which starts first, so a store that runs them in turn sees both orders.
          const remove = () => store().traits.delete({ name: trait.name });
          const take = () => write(store(), [trait.name]);
          const [deleted, taken] =
            round % 2 === 0
              ? await Promise.allSettled([remove(), take()])
              : await Promise.allSettled([take(), remove()]).then(([t, d]) => [d, t] as const);
          expect(await heldButMissing(store())).toEqual([]);
          expect([deleted.status, taken.status].filter((status) => status === "fulfilled")).toHaveLength(1);
          if (deleted.status === "rejected") {
            expect((deleted.reason as { kind?: string }).kind).toBe("conflict");
            await write(store(), []);
            await store().traits.delete({ name: trait.name });
          } else {
            expect((taken as PromiseRejectedResult).reason).toMatchObject({ kind: "invalid" });
          }
          await store().traits.create(trait);
        }
      });
    }
  });
}
