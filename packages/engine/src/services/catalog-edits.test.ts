import { describe, expect, it } from "vitest";
import { recordEtag } from "../index.js";
import { testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

async function withWebProfile() {
  const cluster = await testCluster();
  await cluster.engine.catalog.createProfile({
    project: "default",
    name: "web",
    description: "web servers",
    config: { "limits.cpu": "2", "user.keep": "1" },
    devices: { eth0: { type: "nic", network: "br0" }, root: { type: "disk", path: "/", pool: "a" } },
  });
  return cluster;
}

describe("PATCH and PUT semantics of catalog records (one home: the engine)", () => {
  it("profiles: config keys merge and '' unsets one; a named device is replaced whole", async () => {
    const { engine } = await withWebProfile();
    const patched = await engine.catalog.patchProfile("default", "web", {
      config: { "limits.cpu": "", "limits.memory": "1GiB" },
      devices: { eth0: { type: "nic", network: "br1" } },
    });
    expect(patched).toEqual({
      project: "default",
      name: "web",
      description: "web servers",
      config: { "user.keep": "1", "limits.memory": "1GiB" },
      devices: { eth0: { type: "nic", network: "br1" }, root: { type: "disk", path: "/", pool: "a" } },
    });
    const replaced = await engine.catalog.replaceProfile("default", "web", {
      description: "",
      config: { "limits.cpu": "1" },
      devices: {},
    });
    expect(replaced).toEqual({
      project: "default",
      name: "web",
      description: "",
      config: { "limits.cpu": "1" },
      devices: {},
    });
    expect(await engine.catalog.getProfile("default", "web")).toEqual(replaced);
    expect((await failure(engine.catalog.patchProfile("default", "nope", {}))).message).toBe(
      'Profile "nope" not found in project "default"',
    );
  });

  it("projects, images, placement groups and flavors", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createProject({ name: "p", description: "d", config: { "limits.cpu": "8" } });
    expect(
      await engine.catalog.patchProject("p", { config: { "limits.cpu": "", "limits.instances": "3" } }),
    ).toEqual({ name: "p", description: "d", config: { "limits.instances": "3" } });
    // The project's limits are checked on the way in, and the placement model sees the new ones.
    expect((await failure(engine.catalog.patchProject("p", { config: { "limits.cpu": "x" } }))).kind).toBe(
      "invalid",
    );

    await engine.catalog.createImage({
      fingerprint: "f".repeat(64),
      description: "",
      architecture: "x86_64",
      type: "container",
      aliases: ["u"],
      properties: { os: "ubuntu", release: "jammy" },
    });
    const image = await engine.catalog.patchImage("f".repeat(64), { properties: { release: "noble" } });
    expect(image.properties).toEqual({ os: "ubuntu", release: "noble" });
    expect(image.aliases).toEqual(["u"]);

    await engine.catalog.createPlacementGroup({
      project: "default",
      name: "pg",
      description: "",
      policy: "spread",
      rigor: "strict",
    });
    expect(await engine.catalog.patchPlacementGroup("default", "pg", { rigor: "permissive" })).toMatchObject({
      policy: "spread",
      rigor: "permissive",
    });
    expect(
      (await failure(engine.catalog.patchPlacementGroup("default", "pg", { policy: "sideways" as "spread" })))
        .kind,
    ).toBe("invalid");

    await engine.catalog.createFlavor({
      name: "m1",
      vcpus: 2,
      memory_mb: 2048,
      extra_specs: { "trait:HW_CPU_X86_AVX2": "required" },
    });
    const flavor = await engine.catalog.patchFlavor("m1", {
      vcpus: 4,
      extra_specs: { "resources:CUSTOM_FPGA": "1" },
    });
    expect(flavor).toMatchObject({
      vcpus: 4,
      memoryMb: 2048,
      extraSpecs: { "trait:HW_CPU_X86_AVX2": "required", "resources:CUSTOM_FPGA": "1" },
    });
    expect((await failure(engine.catalog.patchFlavor("m1", { vcpus: 0 }))).kind).toBe("invalid");
    expect((await engine.catalog.getFlavor("m1")).vcpus).toBe(4);
  });

  it("image aliases move, rename and go, each a checked update of its image", async () => {
    const { engine } = await testCluster();
    for (const fingerprint of ["a".repeat(64), "b".repeat(64)]) {
      await engine.catalog.createImage({
        fingerprint,
        description: "",
        architecture: "x86_64",
        type: "container",
        aliases: [],
        properties: {},
      });
    }
    await engine.catalog.addImageAlias("a".repeat(64), "jammy");
    expect((await engine.catalog.imageOfAlias("jammy")).fingerprint).toBe("a".repeat(64));
    expect((await failure(engine.catalog.addImageAlias("b".repeat(64), "jammy"))).message).toBe(
      'Image alias "jammy" already exists',
    );
    await engine.catalog.retargetImageAlias("jammy", "b".repeat(64));
    expect((await engine.catalog.getImage("a".repeat(64))).aliases).toEqual([]);
    expect((await engine.catalog.getImage("b".repeat(64))).aliases).toEqual(["jammy"]);
    expect((await failure(engine.catalog.retargetImageAlias("jammy", "c".repeat(64)))).kind).toBe(
      "not_found",
    );
    await engine.catalog.renameImageAlias("jammy", "22.04");
    expect((await engine.catalog.getImage("b".repeat(64))).aliases).toEqual(["22.04"]);
    await engine.catalog.removeImageAlias("22.04");
    expect((await failure(engine.catalog.imageOfAlias("22.04"))).message).toBe(
      'Image alias "22.04" not found',
    );
  });
});

describe("lost updates are refused, never written over", () => {
  it("If-Match: the ETag the caller read must still be current (Incus's 412 text)", async () => {
    const { engine } = await withWebProfile();
    const read = await engine.catalog.getProfile("default", "web");
    const etag = recordEtag(read);
    // Someone else changes the profile after our read.
    const other = await engine.catalog.patchProfile("default", "web", { config: { "user.other": "x" } });
    const refused = await failure(
      engine.catalog.replaceProfile(
        "default",
        "web",
        { description: "mine", config: {}, devices: {} },
        { ifMatch: `"${etag}"` },
      ),
    );
    expect(refused.kind).toBe("stale");
    expect(refused.message).toBe(`ETag doesn't match: ${recordEtag(other)} vs ${etag}`);
    expect(await engine.catalog.getProfile("default", "web")).toEqual(other);
    // With the current ETag (quoted or not) the change goes through.
    const fresh = await engine.catalog.patchProfile(
      "default",
      "web",
      { description: "mine" },
      { ifMatch: recordEtag(other) },
    );
    expect(fresh.description).toBe("mine");
    expect(fresh.config["user.other"]).toBe("x");
  });

  it("concurrent PATCHes of one record without If-Match all land (each re-applied on a lost race)", async () => {
    const { engine } = await withWebProfile();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        engine.catalog.patchProfile("default", "web", { config: { [`user.k${i}`]: String(i) } }),
      ),
    );
    const config = (await engine.catalog.getProfile("default", "web")).config;
    for (let i = 0; i < 12; i++) expect(config[`user.k${i}`]).toBe(String(i));
    expect(config["user.keep"]).toBe("1");
  });

  it("an If-Match write that loses the race to another write is stale, not applied", async () => {
    const { engine, store } = await withWebProfile();
    const etag = recordEtag(await engine.catalog.getProfile("default", "web"));
    // The other writer lands between our check and our write: the store's conditional update refuses ours.
    const update = store.profiles.update.bind(store.profiles);
    let raced = false;
    store.profiles.update = async (record, expected) => {
      if (!raced) {
        raced = true;
        await update({ ...record, description: "theirs" });
      }
      return update(record, expected);
    };
    const refused = await failure(
      engine.catalog.patchProfile("default", "web", { description: "ours" }, { ifMatch: etag }),
    );
    expect(refused.kind).toBe("stale");
    expect((await engine.catalog.getProfile("default", "web")).description).toBe("theirs");
  });
});
