import { expect } from "vitest";
import { EngineError } from "../../base/errors.js";

/** The EngineError a Store call refuses with (success fails the contract test). */
export async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  throw new Error("expected the store to refuse, but the call succeeded");
}
