import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatPath, PARSE_PARAMS, parseBody, toValidationError } from "./validation.js";

const Sample = z.strictObject({
  name: z.string(),
  count: z.number().int().min(1),
  ratio: z.number().positive().max(10),
  tags: z.array(z.string()).min(1),
  mode: z.enum(["a", "b"]),
  kind: z.literal("sync"),
  devices: z.record(z.string(), z.record(z.string(), z.string())),
  label: z.string().min(1).max(3),
  id: z.uuid(),
  keyed: z.record(z.string().regex(/^[A-Z]+$/, { error: "must be upper case" }), z.number()),
});

const good = {
  name: "x",
  count: 1,
  ratio: 1.5,
  tags: ["t"],
  mode: "a",
  kind: "sync",
  devices: { root: { size: "10GiB" } },
  label: "ab",
  id: "0b5f3d1c-3c0b-4e56-9d7e-4f6b2a1c9e10",
  keyed: { A: 1 },
};

function messageFor(patch: Record<string, unknown>): string {
  const result = parseBody(Sample, { ...good, ...patch });
  if (result.ok) throw new Error("expected a validation error");
  return result.error.message;
}

describe("formatPath", () => {
  it("joins keys with dots and puts indices in brackets", () => {
    expect(formatPath(["instances", 3, "devices", "root", "size"])).toBe("instances[3].devices.root.size");
    expect(formatPath([])).toBe("");
    expect(formatPath([0, "name"])).toBe("[0].name");
    expect(formatPath(["config", ""])).toBe('config[""]');
  });
});

describe("parseBody", () => {
  it("returns the parsed value on success", () => {
    const result = parseBody(Sample, good);
    expect(result).toEqual({ ok: true, value: good });
  });

  it("names an unknown field", () => {
    expect(messageFor({ foo: 1 })).toBe('Unknown field "foo"');
  });

  it("names an unknown nested field with its full path", () => {
    const schema = z.strictObject({ a: z.strictObject({ b: z.string() }) });
    const result = parseBody(schema, { a: { b: "x", c: 1 } });
    expect(result.ok ? "" : result.error.message).toBe('Unknown field "a.c"');
  });

  it("names a field of the wrong type, saying what it got", () => {
    expect(messageFor({ devices: { root: { size: 10 } } })).toBe(
      'Invalid field "devices.root.size": expected string, got number',
    );
    expect(messageFor({ count: 1.5 })).toBe(
      'Invalid field "count": expected integer, got a fractional number',
    );
    expect(messageFor({ tags: "t" })).toBe('Invalid field "tags": expected array, got string');
    expect(messageFor({ tags: [3] })).toBe('Invalid field "tags[0]": expected string, got number');
    expect(messageFor({ name: null })).toBe('Invalid field "name": expected string, got null');
  });

  it("reports a missing required field", () => {
    const { name: _dropped, ...rest } = good;
    const result = parseBody(Sample, rest);
    expect(result.ok ? "" : result.error.message).toBe('Missing field "name"');
  });

  it("explains bounds", () => {
    expect(messageFor({ count: 0 })).toBe('Invalid field "count": must be at least 1');
    expect(messageFor({ ratio: 0 })).toBe('Invalid field "ratio": must be greater than 0');
    expect(messageFor({ ratio: 11 })).toBe('Invalid field "ratio": must be at most 10');
    expect(messageFor({ tags: [] })).toBe('Invalid field "tags": must have at least 1 item');
    expect(messageFor({ label: "" })).toBe('Invalid field "label": must not be empty');
    expect(messageFor({ label: "abcd" })).toBe('Invalid field "label": must be at most 3 characters long');
  });

  it("lists the accepted values of enums and literals", () => {
    expect(messageFor({ mode: "c" })).toBe('Invalid field "mode": expected one of "a", "b"');
    expect(messageFor({ kind: "async" })).toBe('Invalid field "kind": expected "sync"');
  });

  it("explains formats", () => {
    expect(messageFor({ id: "nope" })).toBe('Invalid field "id": must be a valid uuid');
  });

  it("names a bad record key", () => {
    expect(messageFor({ keyed: { a: 1 } })).toBe('Invalid key "a" in field "keyed": must be upper case');
  });

  it("merges what the branches of a union expected", () => {
    const schema = z.strictObject({
      arch: z.union([z.enum(["x86_64", "aarch64"]), z.literal("")]),
      size: z.union([z.string(), z.number()]),
      name: z.union([z.string().regex(/^[a-z]+$/, { error: "must be lower-case letters" }), z.literal("")]),
    });
    const bad = (patch: Record<string, unknown>) => {
      const result = parseBody(schema, { arch: "", size: 1, name: "", ...patch });
      return result.ok ? "" : result.error.message;
    };
    expect(bad({ arch: "amd64" })).toBe('Invalid field "arch": expected one of "x86_64", "aarch64", ""');
    expect(bad({ size: true })).toBe('Invalid field "size": expected string or number, got boolean');
    expect(bad({ name: "X1" })).toBe('Invalid field "name": must be lower-case letters');
  });

  it("gives zod errors raised elsewhere the same wording through PARSE_PARAMS", () => {
    const result = Sample.safeParse({ ...good, count: "1" }, PARSE_PARAMS);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(toValidationError(result.error).message).toBe(
        'Invalid field "count": expected number, got string',
      );
    }
  });

  it("rejects a body that is not an object", () => {
    const result = parseBody(Sample, []);
    expect(result.ok ? "" : result.error.message).toBe("Invalid body: expected object, got array");
  });

  it("counts further errors the way LXD does, unknown fields first", () => {
    const result = parseBody(Sample, { ...good, count: 0, mode: "c", flavour: "x" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe("invalid");
    expect(result.error.message).toBe('Unknown field "flavour" (and 2 more errors)');
    expect(result.error.issues).toEqual([
      { path: "flavour", message: 'Unknown field "flavour"' },
      { path: "count", message: 'Invalid field "count": must be at least 1' },
      { path: "mode", message: 'Invalid field "mode": expected one of "a", "b"' },
    ]);
  });

  it("uses the singular for one more error", () => {
    expect(messageFor({ count: 0, mode: "c" })).toBe(
      'Invalid field "count": must be at least 1 (and 1 more error)',
    );
  });
});
