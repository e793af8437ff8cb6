import { readFileSync } from "node:fs";

/**
 * The group id for `--socket-group` (LXD's `--group`): a number as is, a
 * name looked up in /etc/group (Node has no getgrnam; the file is what
 * libc reads on a plain host). Returns why not when it cannot.
 */
export function resolveGroup(value: string, groupFile = "/etc/group"): number | { error: string } {
  if (/^[0-9]+$/.test(value)) return Number(value);
  let text: string;
  try {
    text = readFileSync(groupFile, "utf8");
  } catch {
    return { error: `Invalid --socket-group "${value}": cannot read ${groupFile} to look the name up` };
  }
  for (const line of text.split("\n")) {
    const [name, , gid] = line.split(":");
    if (name === value && gid !== undefined && /^[0-9]+$/.test(gid)) return Number(gid);
  }
  return { error: `Invalid --socket-group "${value}": no such group in ${groupFile}` };
}
