import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { hasLimits, projectLimitsOf } from "./project-limits.js";

const project = (config: Record<string, string>) => ({ name: "p", description: "", config });

describe("projectLimitsOf", () => {
  it("parses every limit LXD defines: counts as integers, memory and disk as sizes", () => {
    expect(
      projectLimitsOf(
        project({
          "limits.instances": "10",
          "limits.containers": "8",
          "limits.virtual-machines": "2",
          "limits.cpu": "16",
          "limits.memory": "4GiB",
          "limits.disk": "100GB",
          "limits.networks": "3",
        }),
      ),
    ).toEqual({
      instances: 10,
      containers: 8,
      virtualMachines: 2,
      cpu: 16,
      memoryBytes: 4 * 1024 ** 3,
      diskBytes: 100 * 1000 ** 3,
    });
  });

  it("treats absent and empty values as unlimited", () => {
    const limits = projectLimitsOf(project({ "limits.cpu": "" }));
    expect(limits).toEqual({});
    expect(hasLimits(limits)).toBe(false);
  });

  it("names the key of a malformed value", () => {
    const messageOf = (config: Record<string, string>) => {
      try {
        projectLimitsOf(project(config));
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        return (error as EngineError).message;
      }
      return "parsed";
    };
    expect(messageOf({ "limits.instances": "ten" })).toBe(
      'Invalid value for project "p" config "limits.instances": "ten" is not an integer',
    );
    expect(messageOf({ "limits.memory": "lots" })).toMatch(
      /^Invalid value for project "p" config "limits\.memory": /,
    );
    // A size is not a count: "4GiB" for limits.cpu is refused.
    expect(messageOf({ "limits.cpu": "4GiB" })).toContain('"4GiB" is not an integer');
  });
});
