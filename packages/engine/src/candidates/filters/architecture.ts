/** The member runs one of the architectures the instance can use (32-bit personalities included). */
import { staticFilter } from "../filter.js";
import { type Refusal, rejection } from "../rejection.js";

/** 32-bit personalities a 64-bit member can also run (LXD `GetCandidateMembers`). */
const PERSONALITIES: Readonly<Record<string, readonly string[]>> = {
  x86_64: ["i686"],
  aarch64: ["armv6l", "armv7l", "armv8l"],
  ppc64: ["ppc"],
  mips64: ["mips"],
};

export function supportedArchitectures(architecture: string): readonly string[] {
  return [architecture, ...(PERSONALITIES[architecture] ?? [])];
}

/** LXD's words when the member an instance is created on cannot run it. */
const ARCH_REFUSAL = (): Refusal => ({
  kind: "invalid",
  message: "Requested architecture isn't supported by this host",
});

export const architectureFilter = staticFilter({
  name: "architecture",
  reads: { request: ["architectures"], member: ["architecture"] },
  reject: (member, request) => {
    const wanted = request.architectures;
    if (wanted === null) return undefined;
    const supported = supportedArchitectures(member.architecture);
    if (wanted.some((arch) => supported.includes(arch))) return undefined;
    const list = wanted.join("/");
    return rejection(`arch:${list}`, `can't run ${list}`, `can't run ${list}`, false, ARCH_REFUSAL);
  },
});
