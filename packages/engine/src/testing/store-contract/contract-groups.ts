/**
 * The Store contract for cluster group membership and merged member edits:
 * a group's member list is replaced in one transaction (all members
 * written or none, a feed entry per member written), and an edit
 * conditional on the fields the caller read lands only over that version.
 * Part of `runStoreContract`.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../store/port.js";
import { isRecordChanged } from "../../store/record-version.js";
import { newMember } from "../fixtures.js";
import { refusal } from "./contract-refusal.js";

export function describeGroupMembers(store: () => Store): void {
  describe("group membership", () => {
    async function cluster() {
      for (const name of ["default", "gpu", "ssd"]) await store().groups.create({ name, description: "" });
      await store().createMember(newMember("a", { groups: ["default", "gpu"] }));
      await store().createMember(newMember("b", { groups: ["default", "ssd"] }));
      await store().createMember(newMember("c", { groups: ["default"] }));
    }
    const groupsOf = async (name: string) => (await store().getMember(name))!.groups;

    it("replaces a group's members in one write: joiners get it last, leavers lose it, others stay", async () => {
      await cluster();
      const written = await store().setGroupMembers("gpu", ["b", "c"]);
      expect(written.map((m) => [m.name, m.groups])).toEqual([
        ["a", ["default"]],
        ["b", ["default", "ssd", "gpu"]],
        ["c", ["default", "gpu"]],
      ]);
      expect(await groupsOf("a")).toEqual(["default"]);
      expect(await groupsOf("b")).toEqual(["default", "ssd", "gpu"]);
      expect(await store().setGroupMembers("gpu", ["c", "b"])).toEqual([]);
      expect((await store().setGroupMembers("ssd", [])).map((m) => m.name)).toEqual(["b"]);
      expect(await groupsOf("b")).toEqual(["default", "gpu"]);
    });

    it("changes nothing when the group or a named member does not exist", async () => {
      await cluster();
      const missingMember = await refusal(store().setGroupMembers("gpu", ["b", "nope"]));
      expect([missingMember.kind, missingMember.message]).toEqual([
        "not_found",
        'Cluster member "nope" not found',
      ]);
      expect(await groupsOf("a")).toEqual(["default", "gpu"]);
      expect(await groupsOf("b")).toEqual(["default", "ssd"]);
      const missingGroup = await refusal(store().setGroupMembers("fpga", ["a"]));
      expect([missingGroup.kind, missingGroup.message]).toEqual([
        "not_found",
        'Cluster group "fpga" not found',
      ]);
      expect(await groupsOf("a")).toEqual(["default", "gpu"]);
    });

    it("keeps every member in the default group", async () => {
      await cluster();
      expect(await store().setGroupMembers("default", ["a"])).toEqual([]);
      expect(await groupsOf("c")).toEqual(["default"]);
    });

    it("announces each member it wrote, and does not move generations", async () => {
      await cluster();
      const before = await store().getMember("c");
      const cursor = (await store().snapshot()).feedCursor;
      await store().setGroupMembers("gpu", ["c", "a"]);
      expect((await store().getMember("c"))!.generation).toBe(before!.generation);
      if (store().feed === undefined || cursor === undefined) return;
      const { entries } = await store().feed!.read(cursor);
      expect(
        entries.map((entry) => (entry.kind === "member" ? [entry.name, entry.change] : entry.kind)),
      ).toEqual([["c", "updated"]]);
    });

    it("stores a member's groups and traits once each", async () => {
      await store().groups.create({ name: "gpu", description: "" });
      await store().createMember(newMember("a", { groups: ["gpu", "gpu"], traits: ["HW_X", "HW_X"] }));
      expect(await groupsOf("a")).toEqual(["gpu"]);
      expect((await store().updateMember("a", { traits: ["HW_Y", "HW_Y"] })).traits).toEqual(["HW_Y"]);
    });
  });

  describe("member edits conditional on the fields read", () => {
    it("lands over the version read, and refuses (writing nothing) over another", async () => {
      await store().createMember(newMember("a", { config: { "user.x": "1" } }));
      const read = (await store().getMember("a"))!;
      const edited = await store().updateMember(
        "a",
        { config: { ...read.config, "user.y": "2" } },
        undefined,
        { config: read.config },
      );
      expect(edited.config).toEqual({ "user.x": "1", "user.y": "2" });
      const lost = await refusal(
        store().updateMember("a", { config: { "user.z": "3" } }, undefined, { config: read.config }),
      );
      expect(isRecordChanged(lost)).toBe(true);
      expect((await store().getMember("a"))!.config).toEqual({ "user.x": "1", "user.y": "2" });
    });
  });
}
