import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { Instance } from "@berth/api-types";
import { describe, expect, it, onTestFinished } from "vitest";
import { buildProgram, runCli } from "../cli.js";
import type { Io } from "../context.js";
import { ExitCode } from "../exit-codes.js";
import { colours } from "../output/colour.js";
import { parseCount, parseKeyValues } from "./arguments.js";
import { parseBatch, perMemberSummary } from "./bulk.js";
import { parseSizeIn } from "./catalog.js";
import { completionScript, staticCandidates } from "./completion.js";
import { createBody, imageSource } from "./instance-body.js";
import { instanceFields, instanceStatus } from "./instance-views.js";
import { matchesFilters } from "./instances.js";
import { mapLimit } from "./map-limit.js";
import { locateInFile } from "./scriptlet.js";

function memoryIo(env: Record<string, string | undefined> = {}): {
  io: Io;
  out: () => string;
  err: () => string;
} {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => (out += chunk));
  stderr.on("data", (chunk) => (err += chunk));
  return { io: { stdout, stderr, stdin: new PassThrough(), env }, out: () => out, err: () => err };
}

describe("arguments", () => {
  it("parses KEY=VALUE pairs, keeping '=' in values", () => {
    expect(parseKeyValues(["a=1", "b=x=y", "c="], "--config")).toEqual({ a: "1", b: "x=y", c: "" });
    expect(() => parseKeyValues(["nokey"], "--config")).toThrow(
      'Invalid --config "nokey": expected KEY=VALUE',
    );
    expect(() => parseKeyValues(["=v"], "--config")).toThrow("expected KEY=VALUE");
  });
  it("parses counts and sizes, naming the flag", () => {
    expect(parseCount("12", "--vcpus")).toBe(12);
    expect(() => parseCount("1.5", "--vcpus")).toThrow('Invalid --vcpus "1.5": expected a whole number');
    expect(parseSizeIn("2048", 1024 ** 2, "--memory")).toBe(2048);
    expect(parseSizeIn("4GiB", 1024 ** 2, "--memory")).toBe(4096);
    expect(parseSizeIn("1TiB", 1024 ** 3, "--disk")).toBe(1024);
    expect(() => parseSizeIn("1000kB", 1024 ** 2, "--memory")).toThrow(
      'Invalid --memory "1000kB": not a whole number of MiB',
    );
    expect(() => parseSizeIn("lots", 1024 ** 2, "--memory")).toThrow('Invalid --memory "lots"');
  });
});

describe("instance bodies", () => {
  it("reads IMAGE the lxc way", () => {
    expect(imageSource("images:ubuntu/jammy")).toEqual({
      type: "image",
      alias: "ubuntu/jammy",
      server: "https://images.lxd.canonical.com",
      protocol: "simplestreams",
    });
    expect(imageSource("ubuntu/jammy")).toEqual({ type: "image", alias: "ubuntu/jammy" });
    expect(imageSource("a1b2c3d4e5f6")).toEqual({ type: "image", fingerprint: "a1b2c3d4e5f6" });
    expect(() => imageSource("nowhere:x")).toThrow('Unknown image server "nowhere" in "nowhere:x"');
  });
  it("builds the create body from flags", () => {
    expect(
      createBody("ubuntu/jammy", "web1", {
        flavor: "m1",
        config: ["limits.cpu=2"],
        profile: ["a", "b"],
        vm: true,
        target: "n1",
      }),
    ).toEqual({
      name: "web1",
      source: { type: "image", alias: "ubuntu/jammy" },
      type: "virtual-machine",
      flavor: "m1",
      config: { "limits.cpu": "2" },
      profiles: ["a", "b"],
    });
    expect(createBody(undefined, undefined, { profiles: false })).toEqual({ profiles: [] });
    expect(() => createBody(undefined, undefined, { profiles: false, profile: ["a"] })).toThrow(
      "--profile and --no-profiles exclude each other",
    );
  });
});

describe("bulk files", () => {
  it("accepts a list or {instances}, with image shorthand", () => {
    expect(parseBatch([{ name: "a", image: "ubuntu/jammy" }], "f")).toEqual([
      { name: "a", source: { type: "image", alias: "ubuntu/jammy" } },
    ]);
    expect(parseBatch({ instances: [{ name: "b" }] }, "f")).toEqual([{ name: "b" }]);
  });
  it("names the problem", () => {
    expect(() => parseBatch({ x: 1 }, "b.yaml")).toThrow(
      "Invalid batch file b.yaml: expected a list of instances or {instances: [...]}",
    );
    expect(() => parseBatch([], "b.yaml")).toThrow("Invalid batch file b.yaml: no instances");
    expect(() => parseBatch([1], "b.yaml")).toThrow("instances[0] must be a mapping");
    expect(() => parseBatch([{ image: "a", source: {} }], "b.yaml")).toThrow(
      "instances[0] has both image and source",
    );
  });
  it("summarises placements per member, busiest first", () => {
    const p = (location: string) => ({ name: "x", uuid: "u", location });
    expect(perMemberSummary([p("n2"), p("n1"), p("n2"), p("n3"), p("n1"), p("n2")])).toBe(
      "n2 (3), n1 (2), n3 (1)",
    );
  });
});

describe("scriptlet positions", () => {
  it("names the file instead of instance_placement", () => {
    expect(locateInFile("instance_placement:3:5: undefined: foo", "p.star")).toBe(
      "p.star:3:5: undefined: foo",
    );
    expect(locateInFile("Scriptlet does not define instance_placement", "p.star")).toBe(
      "Scriptlet does not define instance_placement",
    );
  });
});

describe("completion", () => {
  const program = buildProgram(memoryIo().io);
  it("completes commands, subcommands, flags and formats", () => {
    expect(staticCandidates(program, ["cl"])).toEqual(["cluster"]);
    expect(staticCandidates(program, ["cluster", "e"])).toEqual(["evacuate"]);
    expect(staticCandidates(program, ["cluster", "inventory", ""])).toEqual(["list", "set", "unset"]);
    expect(staticCandidates(program, ["--format", ""])).toEqual(["compact", "csv", "json", "table", "yaml"]);
    expect(staticCandidates(program, ["init", "--fl"])).toEqual(["--flavor"]);
    expect(staticCandidates(program, ["list", "--form"])).toEqual(["--format"]);
    expect(staticCandidates(program, [""])).not.toContain("__complete");
  });
  it("prints scripts for bash, zsh and fish", () => {
    expect(completionScript("bash")).toContain("complete -o default -F _berth_complete berth");
    expect(completionScript("zsh")).toContain("compdef _berth berth");
    expect(completionScript("fish")).toContain("complete -c berth");
    expect(() => completionScript("tcsh")).toThrow('Unknown shell "tcsh"');
  });
});

describe("the command line", () => {
  it("prints help with examples and exit codes", async () => {
    const { io, out } = memoryIo();
    expect(await runCli(["--help"], io)).toBe(ExitCode.ok);
    expect(out()).toContain("Exit codes:");
    expect(out()).toContain("5  no capacity");
  });

  it("gives every leaf command examples in its help", async () => {
    const program = buildProgram(memoryIo().io);
    const leaves: string[][] = [];
    const visit = (command: typeof program, path: string[]) => {
      const subs = command.commands.filter((c) => c.name() !== "help" && !c.name().startsWith("__"));
      if (subs.length === 0 && path.length > 0) leaves.push(path);
      for (const sub of subs) visit(sub, [...path, sub.name()]);
    };
    visit(program, []);
    expect(leaves.length).toBeGreaterThan(50);
    for (const path of leaves) {
      const { io, out } = memoryIo();
      expect(await runCli([...path, "--help"], io), path.join(" ")).toBe(ExitCode.ok);
      expect(out(), path.join(" ")).toContain("Examples:");
    }
  });

  it("exits 2 on usage errors", async () => {
    for (const args of [
      ["nosuch"],
      ["init"],
      ["list", "--bogus"],
      ["--format", "xml", "list"],
      ["cluster"],
      ["move", "a", "b", "--target", "n"],
    ]) {
      const { io } = memoryIo({ BERTH_SOCKET: "/nonexistent/berth.sock" });
      expect(await runCli(args, io), args.join(" ")).toBe(ExitCode.usage);
    }
  });

  it("exits 8 with a clear message when no server listens", async () => {
    const { io, err } = memoryIo({ BERTH_SOCKET: "/nonexistent/berth.sock" });
    expect(await runCli(["list"], io)).toBe(ExitCode.unreachable);
    expect(err()).toMatch(/^Error: Cannot reach berthd at unix:\/nonexistent\/berth.sock: /);
  });

  it("checks a scriptlet file locally", async () => {
    const dir = mkdtempSync(join(tmpdir(), "berth-star-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const good = join(dir, "good.star");
    writeFileSync(good, "def instance_placement(request, candidate_members):\n    return\n");
    const bad = join(dir, "bad.star");
    writeFileSync(bad, "def instance_placement(request, candidate_members):\n    return undefined_name\n");
    const ok = memoryIo();
    expect(await runCli(["scriptlet", "check", good], ok.io)).toBe(ExitCode.ok);
    expect(ok.out()).toBe(`${good}: OK\n`);
    const failed = memoryIo();
    expect(await runCli(["scriptlet", "check", bad], failed.io)).toBe(ExitCode.failed);
    expect(failed.err()).toMatch(
      new RegExp(`^Error: ${bad.replaceAll("/", "\\/")}:2:12: undefined: undefined_name\\n$`),
    );
    const missing = memoryIo();
    expect(await runCli(["scriptlet", "check", join(dir, "none.star")], missing.io)).toBe(ExitCode.usage);
  });

  it("manages remotes in the config file", async () => {
    const env = { BERTH_CONFIG_DIR: mkdtempSync(join(tmpdir(), "berth-cfg-")) };
    onTestFinished(() => rmSync(env.BERTH_CONFIG_DIR, { recursive: true, force: true }));
    const run = async (...args: string[]) => {
      const m = memoryIo(env);
      const code = await runCli(args, m.io);
      return { code, out: m.out(), err: m.err() };
    };
    expect((await run("remote", "add", "prod", "https://b.example:8443", "--token", "tok")).code).toBe(0);
    expect((await run("remote", "add", "prod", "https://b.example:8443")).code).toBe(ExitCode.conflict);
    expect((await run("remote", "add", "bad", "ftp://x")).code).toBe(ExitCode.usage);
    expect((await run("remote", "switch", "prod")).code).toBe(0);
    expect((await run("remote", "get-default")).out).toBe("prod\n");
    const listed = await run("remote", "list", "--format", "csv");
    expect(listed.out).toBe("local,unix://,false,\nprod,https://b.example:8443,true,\n");
    expect(listed.out).not.toContain("tok");
    expect((await run("remote", "remove", "prod")).code).toBe(ExitCode.conflict);
    expect((await run("remote", "switch", "local")).code).toBe(0);
    expect((await run("remote", "remove", "prod")).code).toBe(0);
    expect((await run("remote", "remove", "prod")).code).toBe(ExitCode.notFound);
  });
});

describe("instance views", () => {
  const instance = {
    name: "web1",
    uuid: "5f0c2b1e-0000-4000-8000-000000000001",
    description: "",
    type: "container",
    architecture: "x86_64",
    config: { "user.role": "web" },
    devices: {},
    expanded_config: { "user.role": "web", "limits.cpu": "2" },
    expanded_devices: {},
    profiles: ["default"],
    ephemeral: false,
    stateful: false,
    status: "Stopped",
    status_code: 102,
    location: "node1",
    project: "default",
    created_at: "2026-11-21T00:00:00Z",
    last_used_at: "2026-11-21T00:00:00Z",
    flavor: "m1.small",
    forthcoming: false,
    resources: { VCPU: 1, MEMORY_MB: 2048, DISK_GB: 20 },
  } as const satisfies Instance;

  it("filters by name prefix, field or config key", () => {
    expect(matchesFilters(instance, [])).toBe(true);
    expect(matchesFilters(instance, ["we"])).toBe(true);
    expect(matchesFilters(instance, ["db"])).toBe(false);
    expect(matchesFilters(instance, ["5f0c"])).toBe(true);
    expect(matchesFilters(instance, ["location=node1", "flavor=m1.small"])).toBe(true);
    expect(matchesFilters(instance, ["location=node2"])).toBe(false);
    expect(matchesFilters(instance, ["limits.cpu=2"])).toBe(true);
    expect(matchesFilters(instance, ["forthcoming=false"])).toBe(true);
  });

  it("shows reservations as such", () => {
    const plain = colours(false);
    expect(instanceStatus(instance, plain)).toBe("STOPPED");
    expect(instanceStatus({ ...instance, forthcoming: true }, plain)).toBe("RESERVED");
    const fields = instanceFields({ ...instance, name: "", forthcoming: true });
    expect(fields).toContainEqual(["Name", "(unnamed reservation)"]);
    expect(fields).toContainEqual(["Status", "Reserved"]);
    expect(fields.slice(-3)).toEqual([
      ["Config", ""],
      ["  user.role", "web"],
      ["  limits.cpu", "2"],
    ]);
  });
});

describe("mapLimit", () => {
  it("keeps order and never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const result = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return n * 10;
    });
    expect(result).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});
