import type { parseBody } from "../validation.js";

/** The message of a body the tests expect `parseBody` to refuse; an accepted body fails the test. */
export function errorOf(result: ReturnType<typeof parseBody>): string {
  if (result.ok) throw new Error("expected the body to be rejected");
  return result.error.message;
}
