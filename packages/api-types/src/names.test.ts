import { describe, expect, it } from "vitest";
import {
  FlavorNameSchema,
  InstanceNameSchema,
  MemberNameSchema,
  ProfileNameSchema,
  ProjectNameSchema,
  ResourceClassNameSchema,
  TraitNameSchema,
} from "./names.js";

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: string) =>
  schema.safeParse(value).success;

describe("name rules", () => {
  it("instance names: DNS host labels starting with a letter", () => {
    for (const good of ["c1", "web-01", "A", "a".repeat(63), "Node-X9"])
      expect(ok(InstanceNameSchema, good), good).toBe(true);
    for (const bad of ["", "1c", "-c", "c-", "c_1", "c.1", "a".repeat(64), "über"])
      expect(ok(InstanceNameSchema, bad), bad).toBe(false);
  });

  it("member names: host names with dots and underscores", () => {
    for (const good of ["node1", "h1.dc1", "rack_2-host07", "1node"])
      expect(ok(MemberNameSchema, good), good).toBe(true);
    for (const bad of ["", ".node", "node-", "node 1", "a".repeat(64)])
      expect(ok(MemberNameSchema, bad), bad).toBe(false);
  });

  it("project and profile names: LXD's forbidden characters", () => {
    for (const good of ["default", "team.a", "Team-1"]) expect(ok(ProjectNameSchema, good), good).toBe(true);
    for (const bad of ["a_b", "a/b", "a b", '"q"', "*", "..", ""])
      expect(ok(ProjectNameSchema, bad), bad).toBe(false);
    for (const good of ["default", "foo_bar", "x.y"]) expect(ok(ProfileNameSchema, good), good).toBe(true);
    for (const bad of ["a/b", ".", "..", "a b", ""]) expect(ok(ProfileNameSchema, bad), bad).toBe(false);
  });

  it("resource classes, custom classes and traits", () => {
    expect(ok(ResourceClassNameSchema, "VCPU")).toBe(true);
    expect(ok(ResourceClassNameSchema, "vcpu")).toBe(false);
    expect(ok(ResourceClassNameSchema, "A".repeat(256))).toBe(false);
    expect(ok(TraitNameSchema, "HW_CPU_X86_AVX2")).toBe(true);
    expect(ok(TraitNameSchema, "hw-cpu")).toBe(false);
  });

  it("flavor names", () => {
    for (const good of ["m1.small", "c4-m8", "baremetal-gold", "gpu:a100"])
      expect(ok(FlavorNameSchema, good), good).toBe(true);
    for (const bad of ["", ".x", "has space", "a".repeat(256)])
      expect(ok(FlavorNameSchema, bad), bad).toBe(false);
  });
});
