import { describe, expect, it } from "vitest";
import { matchesLxdFilter, parseLxdFilter } from "./lxd-filter.js";

const web = { name: "web1", location: "node1", status: "Stopped", config: { "limits.cpu": "2" } };
const db = { name: "db1", location: "node2", status: "Stopped", config: {} };

function names(filter: string): string[] {
  const parsed = parseLxdFilter(filter);
  if (parsed === undefined) throw new Error("no filter");
  return [web, db].filter((one) => matchesLxdFilter(parsed, one)).map((one) => one.name);
}

describe("LXD's ?filter= syntax", () => {
  it("is absent when empty", () => {
    expect(parseLxdFilter(undefined)).toBeUndefined();
    expect(parseLxdFilter("  ")).toBeUndefined();
  });

  it("matches eq and ne on top-level fields", () => {
    expect(names("location eq node1")).toEqual(["web1"]);
    expect(names("location ne node1")).toEqual(["db1"]);
  });

  it("walks into maps whose keys contain dots", () => {
    expect(names("config.limits.cpu eq 2")).toEqual(["web1"]);
  });

  it("joins with and/or (and binds tighter), negates with not, reads quoted values", () => {
    expect(names("location eq node1 and name eq db1 or name eq 'db1'")).toEqual(["db1"]);
    expect(names('not name eq "web1"')).toEqual(["db1"]);
    expect(names("status eq Stopped and not location eq node2")).toEqual(["web1"]);
  });

  it("refuses what it cannot read, naming the filter", () => {
    expect(() => parseLxdFilter("location gt node1")).toThrow(
      'Invalid filter "location gt node1": unsupported operator "gt" (eq and ne are)',
    );
    expect(() => parseLxdFilter("location eq")).toThrow(
      'Invalid filter "location eq": expected FIELD eq|ne VALUE',
    );
    expect(() => parseLxdFilter("name eq a xor name eq b")).toThrow('expected "and" or "or", got "xor"');
    expect(() => parseLxdFilter("name eq a and")).toThrow('nothing after "and"');
  });
});
