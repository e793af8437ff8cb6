/**
 * A server config change as the Store writes it: LXD unsets a key set to
 * `""` (and a key left undefined is not part of the change), so the Store
 * only ever sees values and nulls (null: delete the key).
 */
export function normalizedConfigPatch(
  given: Readonly<Record<string, string | null | undefined>>,
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    patch[key] = value === "" ? null : value;
  }
  return patch;
}
