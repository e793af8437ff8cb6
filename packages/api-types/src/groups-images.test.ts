import { describe, expect, it } from "vitest";
import {
  ImageAliasesEntrySchema,
  ImageAliasesPostSchema,
  ImageAliasPatchSchema,
  ImageAliasPostSchema,
  ImageAliasPutSchema,
  ImagePatchSchema,
  ImagePutSchema,
  ImageSchema,
  ImagesPostSchema,
} from "./images.js";
import {
  PlacementGroupPatchSchema,
  PlacementGroupPostSchema,
  PlacementGroupPutSchema,
  PlacementGroupSchema,
  PlacementGroupsPostSchema,
} from "./placement-groups.js";
import { FINGERPRINT } from "./testing/examples.fixture.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("placement groups", () => {
  it("takes LXD's config map and Berth's earlier top-level fields", () => {
    expect(
      parseBody(PlacementGroupsPostSchema, {
        name: "web",
        description: "",
        config: { policy: "spread", rigor: "strict", topology: "rack", "user.team": "a" },
      }).ok,
    ).toBe(true);
    expect(parseBody(PlacementGroupsPostSchema, { name: "web", policy: "spread" })).toEqual({
      ok: true,
      value: { name: "web", policy: "spread" },
    });
  });

  it("accepts stored groups and their edits", () => {
    const group = {
      name: "db",
      description: "",
      config: { policy: "compact", rigor: "permissive" },
      project: "default",
      used_by: [],
    };
    expect(parseBody(PlacementGroupSchema, group).ok).toBe(true);
    expect(parseBody(PlacementGroupPutSchema, { description: "", config: { policy: "spread" } }).ok).toBe(
      true,
    );
    expect(parseBody(PlacementGroupPatchSchema, { rigor: "permissive" }).ok).toBe(true);
    expect(parseBody(PlacementGroupPostSchema, { name: "db2" }).ok).toBe(true);
  });

  it("rejects unknown top-level policies and rigors, and non-string config values", () => {
    expect(errorOf(parseBody(PlacementGroupsPostSchema, { name: "web", policy: "anti-affinity" }))).toBe(
      'Invalid field "policy": expected one of "spread", "compact"',
    );
    expect(errorOf(parseBody(PlacementGroupPatchSchema, { rigor: "soft" }))).toBe(
      'Invalid field "rigor": expected one of "strict", "permissive"',
    );
    expect(parseBody(PlacementGroupsPostSchema, { name: "web", config: { policy: 1 } }).ok).toBe(false);
  });
});

describe("images and aliases", () => {
  const image = {
    fingerprint: FINGERPRINT,
    architecture: "aarch64",
    type: "container",
    description: "Ubuntu 22.04",
    properties: { os: "ubuntu", release: "jammy" },
    aliases: [{ name: "ubuntu/22.04", description: "" }],
  };

  it("accepts images and their edits", () => {
    expect(parseBody(ImageSchema, image)).toEqual({ ok: true, value: image });
    expect(parseBody(ImagesPostSchema, { fingerprint: FINGERPRINT, architecture: "x86_64" }).ok).toBe(true);
    expect(parseBody(ImagePutSchema, { description: "", properties: {} }).ok).toBe(true);
    expect(parseBody(ImagePatchSchema, { description: "new" }).ok).toBe(true);
  });

  it("accepts aliases and their edits", () => {
    expect(parseBody(ImageAliasesPostSchema, { name: "ubuntu/jammy", target: FINGERPRINT }).ok).toBe(true);
    expect(parseBody(ImageAliasPutSchema, { description: "", target: FINGERPRINT }).ok).toBe(true);
    expect(parseBody(ImageAliasPatchSchema, { target: FINGERPRINT }).ok).toBe(true);
    expect(parseBody(ImageAliasPostSchema, { name: "jammy" }).ok).toBe(true);
    const entry = { name: "jammy", description: "", target: FINGERPRINT, type: "virtual-machine" };
    expect(parseBody(ImageAliasesEntrySchema, entry).ok).toBe(true);
  });

  it("rejects short fingerprints, unknown architectures and spaced aliases", () => {
    expect(errorOf(parseBody(ImagesPostSchema, { fingerprint: "abc", architecture: "x86_64" }))).toBe(
      'Invalid field "fingerprint": must be 64 lower-case hexadecimal digits (a SHA-256)',
    );
    expect(errorOf(parseBody(ImagesPostSchema, { fingerprint: FINGERPRINT, architecture: "amd64" }))).toBe(
      'Invalid field "architecture": expected one of "i686", "x86_64", "armv6l", "armv7l", "armv8l", "aarch64", "ppc", "ppc64", "ppc64le", "s390x", "mips", "mips64", "riscv32", "riscv64", "loongarch64"',
    );
    expect(errorOf(parseBody(ImageAliasesPostSchema, { name: "my image", target: FINGERPRINT }))).toBe(
      'Invalid field "name": must be 1-255 characters without whitespace, control or bidi formatting characters, "?", "#", "%" or "\\"',
    );
  });
});
