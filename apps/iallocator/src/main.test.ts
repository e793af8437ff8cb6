/** The `berth-iallocator` process as Ganeti runs it: a file path, or `-` for stdin; exit status 0 with an answer. */
import { describe, expect, it } from "vitest";
import { runBinary, withInputFile } from "./testing/run.js";

const member = {
  group: "g",
  offline: false,
  drained: false,
  total_memory: 4096,
  free_memory: 4000,
  total_disk: 10000,
  free_disk: 10000,
  total_cpus: 4,
};
const input = {
  nodegroups: { g: { name: "default", alloc_policy: "preferred", networks: [] } },
  nodes: { a: member, b: member },
  instances: {},
  request: {
    type: "allocate",
    name: "x",
    required_nodes: 2,
    memory: 512,
    vcpus: 1,
    disks: [{ size: 100 }],
    disk_template: "drbd",
  },
};

describe("berth-iallocator", () => {
  it("answers the file named by its argument on stdout, exit 0", () => {
    const out = withInputFile(input, (path) => runBinary([path]));
    expect(out.status).toBe(0);
    const answer = JSON.parse(out.stdout);
    expect(answer.success).toBe(true);
    expect([...answer.result].sort()).toEqual(["a", "b"]);
  });

  it("reads stdin for -", () => {
    const out = runBinary(["-"], JSON.stringify(input));
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).success).toBe(true);
  });

  it("answers a failed request with exit 0, and a bad input as a failed request", () => {
    const out = withInputFile("[]", (path) => runBinary([path]));
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      success: false,
      info: "Invalid request: Invalid input: expected object, received array",
      result: [],
    });
  });

  it("exits 1 naming the file it cannot read, and 2 without exactly one argument", () => {
    const missing = runBinary(["/nonexistent/input.json"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^berth-iallocator: cannot read \/nonexistent\/input.json: ENOENT/);
    expect(missing.stdout).toBe("");
    const usage = runBinary([]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toBe("usage: berth-iallocator INPUT-FILE (or - for stdin)\n");
  });
});
