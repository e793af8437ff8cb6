/**
 * OpenStack Placement microversions: the `OpenStack-API-Version: placement
 * X.Y` request header, `latest`, and the range berthd serves. Every Placement
 * route asks `atLeast` before it shows a feature, as Placement does.
 */

/** The range berthd serves: Placement 8.0.0's (Zed), whose maximum is also master's. */
export const MIN_MICROVERSION = { major: 1, minor: 0 } as const;
export const MAX_MICROVERSION = { major: 1, minor: 39 } as const;

export interface Microversion {
  readonly major: number;
  readonly minor: number;
}

export type MicroversionResult =
  | { readonly ok: true; readonly version: Microversion }
  | { readonly ok: false; readonly status: 400 | 406; readonly detail: string };

const SERVICE = "placement";
const VERSION_PATTERN = /^([1-9]\d*|0)\.([1-9]\d*|0)$/;

export function formatMicroversion(version: Microversion): string {
  return `${version.major}.${version.minor}`;
}

export function compareMicroversions(a: Microversion, b: Microversion): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/**
 * The version named for "placement" in a header value such as
 * `placement 1.20, compute 2.1` (other services are ignored). No header, or
 * no placement entry, means the minimum, as in Placement.
 */
function requestedValue(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(",")) {
    const [service, value, ...rest] = part.trim().split(/\s+/);
    if (service?.toLowerCase() === SERVICE && value !== undefined && rest.length === 0) return value;
  }
  return undefined;
}

/** Parses and checks the requested version against the served range (texts as Placement's). */
export function negotiateMicroversion(header: string | undefined): MicroversionResult {
  const value = requestedValue(header);
  if (value === undefined) return { ok: true, version: MIN_MICROVERSION };
  if (value === "latest") return { ok: true, version: MAX_MICROVERSION };
  const match = VERSION_PATTERN.exec(value);
  if (match === null) return { ok: false, status: 400, detail: `invalid version string: ${value}` };
  const version = { major: Number(match[1]), minor: Number(match[2]) };
  if (
    compareMicroversions(version, MIN_MICROVERSION) < 0 ||
    compareMicroversions(version, MAX_MICROVERSION) > 0
  ) {
    return { ok: false, status: 406, detail: `Unacceptable version header: ${value}` };
  }
  return { ok: true, version };
}

/** True when `version` is at least `1.minor` (every Placement microversion is 1.x). */
export function atLeast(version: Microversion, minor: number): boolean {
  return compareMicroversions(version, { major: 1, minor }) >= 0;
}
