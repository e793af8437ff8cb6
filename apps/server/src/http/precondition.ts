import type { Precondition } from "@berth/engine";

/**
 * `If-Match` as LXD/Incus clients send it: the ETag of a GET, quoted or not
 * (`lxc profile edit` sends it back on the PUT). The engine compares it
 * with the record's current version; `*` (any version) asks for nothing.
 */
export function preconditionOf(ifMatch: string | undefined): Precondition {
  const value = ifMatch?.trim();
  if (value === undefined || value === "" || value === "*") return {};
  return { ifMatch: value };
}
