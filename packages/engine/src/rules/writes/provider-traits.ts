/**
 * A provider holds only traits that exist: standard ones (os-traits, built
 * in, never stored) and custom ones the Store keeps. A Store reads which
 * of the custom traits a provider write names exist, in the write's
 * transaction, and lets this judge: a trait deleted after the engine's own
 * early look, but before the write, is refused here instead of being held.
 */
import { isStandardTrait } from "@berth/resources";
import { invalid } from "../../base/errors.js";

/** Placement's text for traits that do not exist (its clients match it). */
export function traitsNotFoundText(names: readonly string[]): string {
  return `No such trait(s): ${names.join(", ")}.`;
}

/** The traits among `traits` that are not standard: the ones a Store must look up, each once. */
export function customTraitsOf(traits: Iterable<string>): string[] {
  return [...new Set(traits)].filter((name) => !isStandardTrait(name));
}

/** invalid (Placement's 400) naming every custom trait of `traits` that is not among the `found` ones. */
export function requireCustomTraits(traits: Iterable<string>, found: ReadonlySet<string>): void {
  const missing = customTraitsOf(traits).filter((name) => !found.has(name));
  if (missing.length > 0)
    throw invalid(traitsNotFoundText(missing), { reason: "trait_not_found", traits: missing });
}
