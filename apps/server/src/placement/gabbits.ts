/**
 * Where OpenStack Placement's own gabbi tests are (read in place from
 * `../shared/placement-gabbits`, never copied) and which of its files berthd
 * must pass in full. The list grows with the API; README "Berth as
 * OpenStack Placement" says what is not served yet.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const GABBITS_KIT = fileURLToPath(
  new URL("../../../../../shared/placement-gabbits/", import.meta.url),
);
/** Debian's python3-gabbi runner and its interpreter (PyYAML for the kit's fixture script). */
export const GABBI_RUN = "/usr/bin/gabbi-run";
export const GABBI_PYTHON = "/usr/bin/python3";

/** Files of the kit's default set (categories a and b) that pass completely, with their test counts. */
export const REQUIRED_GABBITS: Readonly<Record<string, number>> = {
  "aggregate.yaml": 19,
  "allocation-bad-class.yaml": 7,
  "allocation-candidates-any-traits-groups.yaml": 4,
  "allocation-candidates-any-traits.yaml": 6,
  "allocation-candidates-bug-1792503.yaml": 15,
  "allocation-candidates-mappings-numa.yaml": 6,
  "allocation-candidates-mappings-sharing.yaml": 3,
  "allocation-candidates-member-of.yaml": 31,
  "allocation-candidates-root-required.yaml": 28,
  "allocation-candidates.yaml": 53,
  "allocations-1-12.yaml": 10,
  "allocations-1-8.yaml": 10,
  "allocations-1.28.yaml": 25,
  "allocations-bug-1714072.yaml": 7,
  "allocations-bug-1778591.yaml": 5,
  "allocations-bug-1778743.yaml": 5,
  "allocations-bug-1779717.yaml": 8,
  "allocations-mappings.yaml": 7,
  "allocations-post.yaml": 29,
  "allocations.yaml": 45,
  "bug-1674694.yaml": 3,
  "confirm-auth.yaml": 4,
  "consumer-types-1.38.yaml": 19,
  "consumer-types-bug-story-2009167.yaml": 2,
  "ensure-consumer.yaml": 2,
  "granular-same-subtree.yaml": 27,
  "granular.yaml": 30,
  "inventory.yaml": 64,
  "microversion-bug-1724065.yaml": 1,
  "microversion.yaml": 8,
  "non-cors.yaml": 2,
  "reshaper.yaml": 23,
  "resource-class-in-use.yaml": 10,
  "resource-classes-1-6.yaml": 1,
  "resource-classes-1-7.yaml": 6,
  "resource-classes-last-modified.yaml": 10,
  "resource-classes.yaml": 30,
  "resource-provider-aggregates.yaml": 34,
  "resource-provider-any-traits.yaml": 4,
  "resource-provider-bug-1779818.yaml": 9,
  "resource-provider-duplication.yaml": 4,
  "resource-provider-links.yaml": 8,
  "resource-provider-resources-query.yaml": 20,
  "resource-provider.yaml": 83,
  "same-subtree-deep.yaml": 3,
  "shared-resources.yaml": 16,
  "traits.yaml": 53,
  "unicode.yaml": 5,
  "usage.yaml": 15,
  "with-allocations.yaml": 14,
};

/**
 * Files with tests berthd answers differently on purpose (each listed with
 * its reason in README "Berth as OpenStack Placement"): the file's test
 * count and the names of the tests that must be the only failures.
 */
export const DELIBERATE_DIFFERENCES: Readonly<
  Record<string, { tests: number; differing: readonly string[] }>
> = {
  "basic-http.yaml": { tests: 24, differing: ["bad content length not int"] },
};

/** How gabbi-run names a failing test of `file` in its report. */
export function gabbiTestId(file: string, name: string): string {
  return `gabbi-runner.${file.replace(/\.yaml$/, "")}_${name.replaceAll(" ", "_")}`;
}

/** Why the suite cannot run here, or undefined when it can. */
export function gabbiUnavailable(): string | undefined {
  if (!existsSync(`${GABBITS_KIT}run.sh`)) return `${GABBITS_KIT} is not present beside the repository`;
  if (!existsSync(GABBI_RUN)) return `${GABBI_RUN} is not installed (Debian python3-gabbi)`;
  return undefined;
}
