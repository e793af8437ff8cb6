import type { InstancesPost } from "@berth/api-types";
import { usageError } from "../exit-codes.js";
import { parseKeyValues } from "./arguments.js";

/** The flags `init`, `launch`, `reserve` and `scriptlet test` share. */
export interface CreateFlags {
  target?: string;
  flavor?: string;
  config?: string[];
  profile?: string[];
  profiles?: boolean;
  vm?: boolean;
  instanceType?: string;
  description?: string;
  ephemeral?: boolean;
}

/** Image servers `lxc` knows by name, so `images:ubuntu/jammy` means what an lxc user expects. */
const IMAGE_SERVERS: Record<string, string> = {
  images: "https://images.lxd.canonical.com",
  ubuntu: "https://cloud-images.ubuntu.com/releases",
  "ubuntu-daily": "https://cloud-images.ubuntu.com/daily",
};

/**
 * `IMAGE` as lxc reads it: `SERVER:ALIAS` for a known image server, a hex
 * fingerprint (12+ digits), or an alias known to the server.
 */
export function imageSource(image: string): NonNullable<InstancesPost["source"]> {
  const colon = image.indexOf(":");
  if (colon > 0) {
    const server = IMAGE_SERVERS[image.slice(0, colon)];
    const alias = image.slice(colon + 1);
    if (server === undefined) {
      throw usageError(
        `Unknown image server "${image.slice(0, colon)}" in "${image}" (known: ${Object.keys(IMAGE_SERVERS).join(", ")})`,
      );
    }
    if (alias === "") throw usageError(`Missing image alias after "${image}"`);
    return { type: "image", alias, server, protocol: "simplestreams" };
  }
  if (/^[0-9a-f]{12,64}$/.test(image)) return { type: "image", fingerprint: image };
  return { type: "image", alias: image };
}

export function createBody(
  image: string | undefined,
  name: string | undefined,
  flags: CreateFlags,
): InstancesPost {
  const body: InstancesPost = {};
  if (name !== undefined) body.name = name;
  if (image !== undefined) body.source = imageSource(image);
  if (flags.vm) body.type = "virtual-machine";
  if (flags.flavor !== undefined) body.flavor = flags.flavor;
  if (flags.instanceType !== undefined) body.instance_type = flags.instanceType;
  if (flags.description !== undefined) body.description = flags.description;
  if (flags.ephemeral) body.ephemeral = true;
  if (flags.config && flags.config.length > 0) body.config = parseKeyValues(flags.config, "--config");
  // --no-profiles: an explicit empty list (LXD: no profiles at all); absent means the default profile.
  if (flags.profiles === false) {
    if (flags.profile && flags.profile.length > 0)
      throw usageError("--profile and --no-profiles exclude each other");
    body.profiles = [];
  } else if (flags.profile && flags.profile.length > 0) {
    body.profiles = flags.profile;
  }
  return body;
}
