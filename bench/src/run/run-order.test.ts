import { describe, expect, it } from "vitest";
import { runOrder } from "./run-order.js";

describe("run order of the builds", () => {
  it("alternates which build runs first, so each goes first equally often over an even run count", () => {
    const orders = [0, 1, 2, 3].map((run) => runOrder(["this", "baseline"], run).join(" "));
    expect(orders).toEqual(["this baseline", "baseline this", "this baseline", "baseline this"]);
  });
});
