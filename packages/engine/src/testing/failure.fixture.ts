import { EngineError } from "../base/errors.js";

/** The EngineError `promise` rejects with (anything else, or success, fails the test). */
export async function failure(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}
