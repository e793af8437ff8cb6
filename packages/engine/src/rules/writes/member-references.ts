/**
 * What a member names must exist: its cluster groups, and the custom
 * resource classes of its inventories (standard classes are built in). A
 * Store reads which of the named ones exist, in its transaction, and lets
 * these judge.
 */
import { isCustomResourceClass } from "@berth/resources";
import { notFound } from "../../base/errors.js";

/** The custom classes among `classes`: the ones a Store must look up. */
export function customClassesOf(classes: Iterable<string>): string[] {
  return [...classes].filter(isCustomResourceClass);
}

/** not_found for the first of `names` that is not among the `found` groups. */
export function requireGroups(names: readonly string[], found: ReadonlySet<string>): void {
  const missing = names.find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Cluster group "${missing}" not found`);
}

/** not_found for the first custom class of `classes` that is not among the `found` ones. */
export function requireCustomClasses(classes: Iterable<string>, found: ReadonlySet<string>): void {
  const missing = customClassesOf(classes).find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Resource class "${missing}" not found`);
}

/** A member's groups or traits as stored: each once, in the order first given. */
export function uniqueNames(names: readonly string[]): string[] {
  return [...new Set(names)];
}
