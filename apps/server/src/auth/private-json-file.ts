import { chmodSync, renameSync, writeFileSync } from "node:fs";

/**
 * Writes `value` as JSON to `path`, readable by its owner only (0600), by
 * atomic rename so a reader (another berthd on the same file) never sees
 * half a file.
 */
export function writePrivateJson(path: string, value: unknown): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
