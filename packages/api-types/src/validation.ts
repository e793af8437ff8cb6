import type { z } from "zod";

/** One problem found in a request body, with the dotted path of the field it concerns. */
export interface FieldIssue {
  /** Field path such as `devices.root.size` or `instances[2].name`; empty for the body itself. */
  readonly path: string;
  /** Complete sentence naming the field, e.g. `Unknown field "foo"`. */
  readonly message: string;
}

/** A rejected request body. `kind` matches the engine's error vocabulary ("invalid" => HTTP 400). */
export interface ValidationError {
  readonly kind: "invalid";
  /** The first issue's message, plus ` (and N more errors)` when there are several (LXD's wording). */
  readonly message: string;
  readonly issues: readonly FieldIssue[];
}

export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ValidationError };

/**
 * Formats a path the way an operator would type it: object keys joined with dots,
 * array indices in brackets (`instances[3].name`). Keys are not escaped, so a config key
 * keeps its own dots (`config.limits.cpu`), which is how LXD users read them anyway.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    // An empty key would vanish from a dotted path; show it explicitly.
    else if (segment === "") out += '[""]';
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  if (typeof input === "number" && !Number.isInteger(input)) return "a fractional number";
  return typeof input;
}

/** zod calls safe integers "int"; users read "integer". */
const expectedNames: Record<string, string> = { int: "integer" };

function joinChoices(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

/** `1 item`, `3 items`. */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function sizeMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, small: boolean): string {
  const bound = small
    ? (issue as z.core.$ZodIssueTooSmall).minimum
    : (issue as z.core.$ZodIssueTooBig).maximum;
  const n = Number(bound);
  const exact = (issue as { exact?: boolean }).exact === true;
  switch (issue.origin) {
    case "string":
      if (exact) return `must be exactly ${counted(n, "character")} long`;
      if (small && n === 1) return "must not be empty";
      return `must be ${small ? "at least" : "at most"} ${counted(n, "character")} long`;
    case "array":
    case "set":
      if (exact) return `must have exactly ${counted(n, "item")}`;
      return `must have ${small ? "at least" : "at most"} ${counted(n, "item")}`;
    default:
      if (issue.inclusive) return `must be ${small ? "at least" : "at most"} ${String(bound)}`;
      return `must be ${small ? "greater" : "less"} than ${String(bound)}`;
  }
}

/**
 * A union failed every branch. Merge what the branches expected when they all failed at the
 * value itself (`expected one of "x86_64", ..., ""`, `expected string or number`); otherwise
 * use the branch that got furthest (e.g. the name rule rather than `expected ""`).
 */
function describeUnion(issue: {
  errors: readonly (readonly z.core.$ZodIssue[])[];
  input?: unknown;
  options?: readonly unknown[];
}): string {
  // A discriminated union whose discriminator matched no branch lists the accepted values.
  if (issue.errors.length === 0) {
    return issue.options && issue.options.length > 0
      ? `expected one of ${joinChoices(issue.options)}`
      : "does not match any accepted shape";
  }
  const rootIssues = issue.errors.map((branch) =>
    branch.length === 1 && branch[0]?.path.length === 0 ? branch[0] : undefined,
  );
  if (rootIssues.every((one) => one?.code === "invalid_value")) {
    const values = rootIssues.flatMap((one) => (one?.code === "invalid_value" ? one.values : []));
    return values.length === 1 ? `expected ${joinChoices(values)}` : `expected one of ${joinChoices(values)}`;
  }
  if (rootIssues.every((one) => one?.code === "invalid_type")) {
    const expected = rootIssues.map((one) =>
      one?.code === "invalid_type" ? (expectedNames[one.expected] ?? one.expected) : "",
    );
    return `expected ${[...new Set(expected)].join(" or ")}, got ${describeInput(issue.input)}`;
  }
  const furthest = issue.errors.find((branch) =>
    branch.some(
      (one) => one.path.length > 0 || (one.code !== "invalid_value" && one.code !== "invalid_type"),
    ),
  );
  const first = furthest?.[0];
  if (first !== undefined && first.path.length === 0) return first.message;
  return "does not match any accepted shape";
}

/**
 * The default wording for issues whose schema did not supply its own message.
 * Passed per parse (not through zod's global config) so other packages' zod use is untouched.
 */
function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      const expected = expectedNames[issue.expected] ?? issue.expected;
      return `expected ${expected}, got ${describeInput(issue.input)}`;
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `expected ${joinChoices(issue.values)}`
        : `expected one of ${joinChoices(issue.values)}`;
    case "too_small":
      return sizeMessage(issue as unknown as z.core.$ZodIssueTooSmall, true);
    case "too_big":
      return sizeMessage(issue as unknown as z.core.$ZodIssueTooBig, false);
    case "invalid_format":
      if (issue.format === "regex") return `must match ${String((issue as { pattern?: unknown }).pattern)}`;
      if (issue.format === "datetime") return "must be an RFC 3339 timestamp";
      return `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return describeUnion(
        issue as unknown as { errors: readonly (readonly z.core.$ZodIssue[])[]; input?: unknown },
      );
    default:
      return undefined;
  }
}

/** Codes for which an undefined input means the field was left out (rather than a refinement failing). */
const MISSING_CODES = new Set<string>(["invalid_type", "invalid_value", "invalid_union"]);

function issueToField(issue: z.core.$ZodIssue): FieldIssue[] {
  const path = formatPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const keyPath = formatPath([...issue.path, key]);
      return { path: keyPath, message: `Unknown field "${keyPath}"` };
    });
  }
  if (MISSING_CODES.has(issue.code) && issue.input === undefined && path !== "") {
    return [{ path, message: `Missing field "${path}"` }];
  }
  if (issue.code === "invalid_key") {
    const key = issue.path[issue.path.length - 1];
    const inner = issue.issues[0]?.message ?? "invalid";
    const parent = formatPath(issue.path.slice(0, -1));
    const where = parent === "" ? "body" : `field "${parent}"`;
    return [{ path, message: `Invalid key "${String(key)}" in ${where}: ${inner}` }];
  }
  if (path === "") return [{ path, message: `Invalid body: ${issue.message}` }];
  return [{ path, message: `Invalid field "${path}": ${issue.message}` }];
}

function summarize(issues: readonly FieldIssue[]): string {
  const first = issues[0]?.message ?? "Invalid body";
  const more = issues.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${counted(more, "more error")})`;
}

/**
 * Turns zod issues into field issues. Unknown fields come first (shallowest first): a misspelt key
 * (`flavour`) is the root cause of whatever else is reported about that object.
 */
export function toValidationError(error: z.core.$ZodError): ValidationError {
  // Shallowest first: an unknown top-level key explains more than one deep inside it.
  const unknown = error.issues
    .filter((issue) => issue.code === "unrecognized_keys")
    .sort((a, b) => a.path.length - b.path.length);
  const rest = error.issues.filter((issue) => issue.code !== "unrecognized_keys");
  const issues = [...unknown, ...rest].flatMap(issueToField);
  return { kind: "invalid", message: summarize(issues), issues };
}

/**
 * The parse options `parseBody` uses: Berth's wording for issues without a schema-supplied
 * message. Pass them to `schema.parse(x, PARSE_PARAMS)` when calling zod directly, so a
 * `ZodError` later given to `toValidationError` reads the same as `parseBody`'s errors.
 */
export const PARSE_PARAMS: z.core.ParseContext<z.core.$ZodIssue> = {
  reportInput: true,
  error: describeIssue,
};

/**
 * Validates a decoded JSON body against one of this package's schemas.
 * Never throws for bad input: the error names every offending field.
 */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(input, PARSE_PARAMS);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: toValidationError(result.error) };
}
