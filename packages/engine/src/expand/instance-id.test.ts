import { describe, expect, it } from "vitest";
import { defaultInstanceName, newInstanceId } from "./instance-id.js";
import { isUuid } from "./target.js";

describe("newInstanceId", () => {
  it("is an RFC 9562 version 7 UUID carrying the given milliseconds", () => {
    const id = newInstanceId(0x0190_1234_5678);
    expect(isUuid(id)).toBe(true);
    expect(id.slice(0, 13)).toBe("01901234-5678");
    expect(id[14]).toBe("7");
    expect(["8", "9", "a", "b"]).toContain(id[19]);
  });

  it("sorts by creation time, so a commit's new ids share the end of every key", () => {
    const earlier = newInstanceId(1_700_000_000_000);
    const later = newInstanceId(1_700_000_000_001);
    expect(earlier < later).toBe(true);
  });

  it("differs within one millisecond and gives distinct default names", () => {
    const ids = Array.from({ length: 1000 }, () => newInstanceId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect(new Set(ids.map(defaultInstanceName)).size).toBe(1000);
    expect(defaultInstanceName(ids[0] ?? "")).toMatch(/^instance-[0-9a-f]{8}$/);
  });
});
