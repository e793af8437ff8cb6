import { type ClaimFailureDetails, EngineError } from "@berth/engine";

/** A lost race or a refusal of a claim, with the details the engine re-plans on. */
export function claimFailure(
  kind: "conflict" | "insufficient_capacity",
  message: string,
  details: ClaimFailureDetails,
): EngineError {
  return new EngineError(kind, message, details as unknown as Record<string, unknown>);
}
