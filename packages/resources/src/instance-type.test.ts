import { describe, expect, it } from "vitest";
import { parseInstanceType } from "./instance-type.js";

describe("parseInstanceType", () => {
  it.each([
    ["c2-m4", { "limits.cpu": "2", "limits.memory": "4096MiB" }],
    ["c4-m8", { "limits.cpu": "4", "limits.memory": "8192MiB" }],
    ["m4-c2", { "limits.cpu": "2", "limits.memory": "4096MiB" }],
    ["c1", { "limits.cpu": "1" }],
    ["m0.5", { "limits.memory": "512MiB" }],
    ["c0.5-m0.5", { "limits.cpu": "1", "limits.cpu.allowance": "50%", "limits.memory": "512MiB" }],
    ["c2.5-m1.5", { "limits.cpu": "3", "limits.cpu.allowance": "83%", "limits.memory": "1536MiB" }],
    ["c0-m0", {}],
    ["c1-c3", { "limits.cpu": "3" }],
    ["c1e1", { "limits.cpu": "10" }],
    ["m0.1", { "limits.memory": "102MiB" }],
    ["c.5", { "limits.cpu": "1", "limits.cpu.allowance": "50%" }],
  ])("%s sets %j", (input, expected) => {
    expect(parseInstanceType(input)).toEqual({ ok: true, value: expected });
  });

  it.each(["", "t2.micro", "aws:t2.micro", "c", "c2-", "x2", "c2-x4", "c-1"])(
    "%j doesn't exist (LXD's text)",
    (input) => {
      expect(parseInstanceType(input)).toEqual({
        ok: false,
        error: {
          kind: "unknown-instance-type",
          input,
          message: `Provided instance type doesn't exist: ${input}`,
        },
      });
    },
  );

  it.each(["cx", "c2-mfour", "c1.2.3", "c1e40", "cinf", "c1_0"])(
    "%j is a bad custom type (LXD's text)",
    (input) => {
      expect(parseInstanceType(input)).toEqual({
        ok: false,
        error: { kind: "bad-instance-type", input, message: `Bad custom instance type: ${input}` },
      });
    },
  );
});
