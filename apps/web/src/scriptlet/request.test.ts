import type { Instance } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { bodyOf, EMPTY_REQUEST, formFromInstance, parseConfig } from "./request.js";

describe("the dry run's request", () => {
  it("reads key=value lines, skipping blanks and comments, and names a bad line", () => {
    expect(parseConfig("limits.cpu=2\n\n# memory\n limits.memory = 4GiB \n")).toEqual({
      "limits.cpu": "2",
      "limits.memory": "4GiB",
    });
    expect(() => parseConfig("limits.cpu=2\nnonsense")).toThrow('Config line 2 needs key=value: "nonsense"');
  });

  it("sends only what the form says", () => {
    expect(bodyOf(EMPTY_REQUEST)).toEqual({ name: "test1", type: "container" });
    expect(bodyOf({ ...EMPTY_REQUEST, name: " ", flavor: "m1.small", config: "limits.cpu=4" })).toEqual({
      type: "container",
      flavor: "m1.small",
      config: { "limits.cpu": "4" },
    });
  });

  it("starts from a placed instance: its project, flavor, type and config", () => {
    const instance = {
      name: "web1",
      project: "team",
      flavor: "m1.large",
      type: "virtual-machine",
      config: { "limits.cpu": "4", "user.role": "web" },
    } as unknown as Instance;
    expect(formFromInstance(instance)).toEqual({
      name: "web1",
      project: "team",
      flavor: "m1.large",
      type: "virtual-machine",
      config: "limits.cpu=4\nuser.role=web",
      target: "",
    });
  });
});
