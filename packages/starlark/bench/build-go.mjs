// Builds go.starlark.net (Debian's golang-starlark-dev, with Debian's golang-go) into
// bench/.go-build/ for the side-by-side benchmark. Returns the binary's path, or the reason it
// cannot be built (no Go toolchain, no go.starlark.net sources); `node bench/build-go.mjs` builds
// and prints one of them.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** Where Debian installs Go sources (GOPATH layout), go.starlark.net included. */
const DEBIAN_GOPATH = "/usr/share/gocode";
export const GO_BUILD_DIR = join(here, ".go-build");

/** @returns {{ binary: string, version: string } | { unavailable: string }} */
export function buildGoStarlark() {
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.error || go.status !== 0) {
    return { unavailable: "no Go toolchain (install Debian's golang-go)" };
  }
  if (!existsSync(join(DEBIAN_GOPATH, "src/go.starlark.net/starlark"))) {
    return {
      unavailable: `no go.starlark.net sources under ${DEBIAN_GOPATH} (install Debian's golang-starlark-dev)`,
    };
  }
  const gopath = join(GO_BUILD_DIR, "gopath");
  mkdirSync(join(gopath, "src/starlark-go"), { recursive: true });
  cpSync(join(here, "go/main.go"), join(gopath, "src/starlark-go/main.go"));
  const binary = join(GO_BUILD_DIR, "starlark-go");
  const build = spawnSync("go", ["build", "-o", binary, "starlark-go"], {
    encoding: "utf8",
    env: {
      ...process.env,
      GOPATH: `${gopath}:${DEBIAN_GOPATH}`,
      GO111MODULE: "off",
      GOCACHE: join(GO_BUILD_DIR, "cache"),
      GOFLAGS: "",
    },
  });
  if (build.status !== 0) return { unavailable: `go build failed: ${build.stderr.trim()}` };
  // Debian's package version names the upstream commit (0.0~git20210122.f935de8-2).
  const dpkg = spawnSync("dpkg-query", ["--showformat=$" + "{Version}", "--show", "golang-starlark-dev"], {
    encoding: "utf8",
  });
  const debianVersion = dpkg.status === 0 ? dpkg.stdout.trim() : "(version unknown)";
  const version = `${go.stdout.trim()}, go.starlark.net ${debianVersion}`;
  return { binary, version };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = buildGoStarlark();
  console.log(
    "binary" in r ? `built ${r.binary} (${r.version})` : `go.starlark.net unavailable: ${r.unavailable}`,
  );
}
