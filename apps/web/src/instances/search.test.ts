import type { Instance } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { labelOf, searchInstances, statusOf } from "./search.js";

const make = (fields: Partial<Instance>): Instance =>
  ({
    name: "",
    uuid: "00000000-0000-4000-8000-000000000001",
    project: "default",
    location: "node1",
    flavor: "",
    status: "Stopped",
    forthcoming: false,
    ...fields,
  }) as Instance;

const all = [
  make({ name: "web1", location: "node3", flavor: "m1.small" }),
  make({ name: "db1", location: "node3", flavor: "m1.large" }),
  make({ name: "", uuid: "00000000-0000-4000-8000-00000000beef", location: "node2", forthcoming: true }),
];

describe("the instances table's search", () => {
  it("finds rows where every word appears in some column", () => {
    const names = (query: string) => searchInstances(all, query, "all").map(labelOf);
    expect(names("node3 m1.small")).toEqual(["web1"]);
    expect(names("NODE3")).toEqual(["web1", "db1"]);
    expect(names("reserved")).toEqual(["00000000-0000-4000-8000-00000000beef"]);
    expect(names("")).toHaveLength(3);
    expect(names("nothing")).toEqual([]);
  });

  it("shows instances or reservations only, and names an unnamed reservation by its UUID", () => {
    expect(searchInstances(all, "", "instances").map(labelOf)).toEqual(["web1", "db1"]);
    expect(searchInstances(all, "", "reservations").map(statusOf)).toEqual(["Reserved"]);
  });
});
