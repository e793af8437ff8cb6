/**
 * Conformance chunks that are known and reviewed to behave differently from a suite's
 * go.starlark.net version, with the reason. Keyed by "<file>:<first line of chunk>"; each entry
 * names the exact problems it excuses, so any other failure in the same chunk still fails.
 *
 * Against the 2021 data there are two kinds:
 * - upstream changes: go.starlark.net itself changed the behaviour since 2021, Berth follows the
 *   newest version, and the newest data (../shared/starlark-upstream) shows the change; `upstream`
 *   names that file and a line of it, which the test checks is there;
 * - Berth's own differences (none today), at most 5 (issue #3).
 * Against the newest data only Berth's own differences exist, at most 3 (issue #19).
 */
export interface ExpectedDifference {
  readonly reason: string;
  /** Every problem reported for the chunk must match one of these. */
  readonly problems: readonly RegExp[];
  /** For an upstream change: the newest data's file and a text in it that shows the new behaviour. */
  readonly upstream?: { readonly file: string; readonly text: string };
}

/** Against go.starlark.net f935de8 (2021). */
export const EXPECTED_DIFFERENCES_2021: ReadonlyMap<string, ExpectedDifference> = new Map([
  [
    "builtins.star:1",
    {
      reason:
        "set gained its full method set (add, remove, discard, ...) after 2021, so dir(set([])) lists more than " +
        'the 2021 snapshot\'s ["union"]',
      problems: [/^assertion failed: \["add", "clear", .*"union", "update"\] != \["union"\]$/],
      upstream: {
        file: "builtins.star",
        text: 'assert.eq(dir(myset), ["add", "clear", "difference", "discard", "intersection", "issubset"',
      },
    },
  ],
  [
    "json.star:1",
    {
      reason:
        'a string literal may no longer hold a non-ASCII \\x escape ("\\x80" is now a static error; bytes ' +
        "literals may), so the 2021 file does not compile; the newest json.star tests the same replacement " +
        'with "😹"[:1]',
      problems: [
        /^static error .*json\.star:26:23: non-ASCII hex escape \\x80 \(use \\u0080 for the UTF-8 encoding of U\+0080\)$/,
      ],
      upstream: { file: "json.star", text: '], json.encode("😹"[:1])) # invalid UTF-8 -> replacement char' },
    },
  ],
  [
    "set.star:1",
    {
      reason: "sets gained the subset/superset comparisons < <= > >=, so `x < y` no longer fails",
      problems: [
        /^assertion failed: evaluation succeeded unexpectedly \(want error matching "set < set not implemented"\)$/,
      ],
      upstream: { file: "set.star", text: "assert.true(set([1,2]) < set([1,2,3]))" },
    },
  ],
  [
    "string.star:1",
    {
      reason:
        'a string literal may no longer hold a non-ASCII \\x escape ("\\x9f" is now a static error), so the ' +
        "2021 file does not compile; and codepoints() now yields U+FFFD for such bytes, which the newest " +
        "string.star expects instead",
      problems: [
        /^static error .*string\.star:59:55: non-ASCII hex escape \\x9f \(use \\u009F for the UTF-8 encoding of U\+009F\)$/,
      ],
      upstream: {
        file: "string.star",
        text: 'assert.eq(list(("A" + "😿Z"[1:]).codepoints()), ["A", "�", "�", "�", "Z"])',
      },
    },
  ],
  [
    "syntax/errors.star:1",
    {
      reason:
        "an unexpected newline is reported at the newline (the end of the line), not at the start of the next line",
      problems: [
        /^line 6: unexpected error: got newline, want primary expression$/,
        /^line 7: expected error matching "got newline, want primary expression"$/,
      ],
      upstream: { file: "syntax/errors.star", text: 'x = 1 + ### "got newline, want primary expression"' },
    },
  ],
  [
    "syntax/errors.star:177",
    {
      reason: "the same change as syntax/errors.star:1 (the chunk repeats the test)",
      problems: [
        /^line 177: unexpected error: got newline, want primary expression$/,
        /^line 178: expected error matching "got newline, want primary expression"$/,
      ],
      upstream: { file: "syntax/errors.star", text: 'x = 1 + ### "got newline, want primary expression"' },
    },
  ],
  [
    "resolve/resolve.star:341",
    {
      reason: 'a repeated keyword argument is now `keyword argument "a" is repeated` (quoted, "is repeated")',
      problems: [
        /^line 343: error "keyword argument "a" is repeated" does not match pattern "keyword argument a repeated"$/,
      ],
      upstream: { file: "resolve/resolve.star", text: 'f(a=1, a=1) ### `keyword argument "a" is repeated`' },
    },
  ],
]);

/** Against go.starlark.net 529d8e8 (June 2026): none. */
export const EXPECTED_DIFFERENCES_UPSTREAM: ReadonlyMap<string, ExpectedDifference> = new Map();
