/**
 * Conformance chunks that are known and reviewed to behave differently from go.starlark.net,
 * each with the reason. Keyed by "<file>:<first line of chunk>". At most 5 entries (issue #3).
 */
export const EXPECTED_DIFFERENCES: ReadonlyMap<string, string> = new Map<string, string>([]);
