import { describe, expect, it } from "vitest";
import { memberState } from "../testing/stack.fixture.js";
import { ChangeJournal } from "./change-journal.js";
import type { MemberState } from "./member-state.js";

describe("ChangeJournal", () => {
  it("names the members changed since a position, and says when it no longer reaches back", () => {
    const journal = new ChangeJournal<MemberState>();
    const a = memberState("a");
    const b = memberState("b");
    const start = journal.end;
    journal.note(a);
    journal.note(b);
    const seen: string[] = [];
    expect(journal.since(start, (member) => seen.push(member.name))).toBe(true);
    expect(seen).toEqual(["a", "b"]);
    const caughtUp = journal.end;
    for (let index = 0; index < 5000; index++) journal.note(a);
    expect(journal.since(start, () => seen.push("stale"))).toBe(false);
    expect(journal.since(caughtUp, () => {})).toBe(false);
    expect(journal.since(journal.end, () => seen.push("none"))).toBe(true);
    expect(seen).toEqual(["a", "b"]);
    // A reader a little behind still reads across the window's turn.
    const recent = journal.end;
    for (let index = 0; index < 3000; index++) journal.note(a);
    journal.note(b);
    let last = "";
    expect(journal.since(recent, (member) => (last = member.name))).toBe(true);
    expect(last).toBe("b");
  });
});
