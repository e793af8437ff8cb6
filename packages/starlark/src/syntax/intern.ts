/**
 * Interning of string literals.
 *
 * The scanner builds each literal as a fresh string. Two equal literals (the key in
 * `{"zone": z}` and the one in `m["zone"]`) are then distinct objects, and every ===
 * between them, or between two different same-length field names, compares characters.
 * V8 keeps property names in its string table, where equal strings are one object and
 * unequal ones are told apart by pointer; a literal passed through a property key comes
 * back as that table entry, so dict lookups by literal keys cost a pointer comparison.
 */
export function internString(s: string): string {
  const holder: Record<string, true> = { [s]: true };
  for (const name in holder) return name;
  return s;
}
