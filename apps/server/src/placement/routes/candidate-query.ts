/**
 * The query of `GET /allocation_candidates` per microversion, parsed into
 * the engine's `CandidateRequest` with Placement's 400 texts: the
 * unsuffixed group (`resources`, `required`, `member_of`, `in_tree`),
 * numbered groups from 1.25 (`resources1`…) and any suffix from 1.33
 * (`resources_NET`…), `group_policy` (1.25), `root_required` (1.35),
 * `same_subtree` and groups without resources (1.36). What the groups mean
 * is the engine's (`engine.providers.candidates`).
 */
import type { CandidateRequest, Engine, RequestGroup } from "@berth/engine";
import { atLeast, type Microversion } from "../microversion.js";
import { badRequest, PLACEMENT_CODES } from "../placement-error.js";
import { checkQueryKeys, isUuid, normalizeUuid, parseRequired, parseResources } from "../query.js";
import { checkResourceClassesExist, checkTraitsExist, memberOfParam } from "./provider-query.js";

const INVALID = "Invalid query string parameters";
const PARTS = ["resources", "required", "member_of", "in_tree"] as const;
type Part = (typeof PARTS)[number];

/** Placement's suffix syntax: numbers from 1.25, any 1–64 of `[a-zA-Z0-9_-]` from 1.33. */
const suffixPattern = (version: Microversion) =>
  atLeast(version, 33) ? "[a-zA-Z0-9_-]{1,64}" : "[1-9][0-9]*";

function groupedParts(version: Microversion): Part[] {
  return PARTS.filter((part) => part !== "in_tree" || atLeast(version, 31));
}

/** Refuses what Placement's query schema refuses: unknown keys, a bad `limit` or `group_policy`. */
function checkSchema(query: URLSearchParams, version: Microversion): void {
  if (!atLeast(version, 25)) {
    const keys = ["resources"];
    if (atLeast(version, 16)) keys.push("limit");
    if (atLeast(version, 17)) keys.push("required");
    if (atLeast(version, 21)) keys.push("member_of");
    checkQueryKeys(query, keys);
    if (!query.has("resources")) throw badRequest(`${INVALID}: 'resources' is a required property`);
  } else {
    const named = ["limit", "group_policy"];
    if (atLeast(version, 35)) named.push("root_required");
    if (atLeast(version, 36)) named.push("same_subtree");
    const patterns = groupedParts(version).map((part) => `^${part}(${suffixPattern(version)})?$`);
    const extra = [...new Set(query.keys())].filter(
      (key) => !named.includes(key) && !patterns.some((p) => new RegExp(p).test(key)),
    );
    if (extra.length > 0) {
      const names = extra
        .sort()
        .map((key) => `'${key}'`)
        .join(", ");
      const regexes = patterns
        .sort()
        .map((p) => `'${p}'`)
        .join(", ");
      throw badRequest(
        `${INVALID}: ${names} ${extra.length === 1 ? "does" : "do"} not match any of the regexes: ${regexes}`,
      );
    }
    const policy = query.get("group_policy");
    if (policy !== null && policy !== "none" && policy !== "isolate")
      throw badRequest(`${INVALID}: '${policy}' is not one of ['none', 'isolate']`);
  }
  // Placement's schema reads the first `limit` when several are given.
  const limit = query.get("limit");
  if (limit !== null && !/^[1-9][0-9]*$/.test(limit))
    throw badRequest(`${INVALID}: '${limit}' does not match '^[1-9][0-9]*$'\n\nFailed validating 'pattern'`);
}

interface ParsedGroup extends RequestGroup {
  hasRequired: boolean;
  hasMemberOf: boolean;
}

/** The groups in the order their first key appears in the query. */
function parseGroups(query: URLSearchParams, version: Microversion): ParsedGroup[] {
  const matcher = new RegExp(`^(${groupedParts(version).join("|")})(${suffixPattern(version)})?$`);
  const groups = new Map<string, ParsedGroup>();
  for (const [key, value] of query) {
    const match = matcher.exec(key);
    if (match === null) continue;
    const part = match[1] as Part;
    const suffix = match[2] ?? "";
    let group = groups.get(suffix);
    if (group === undefined) {
      group = { suffix, resources: {}, hasRequired: false, hasMemberOf: false };
      groups.set(suffix, group);
    }
    if (part === "resources") group.resources = parseResources(value);
    else if (part === "required") {
      // Before 1.39 only the last `required` of a group counts.
      const values = query.getAll(key);
      const parsed = parseRequired(atLeast(version, 39) ? values : values.slice(-1), version);
      group.required = parsed.required;
      group.forbidden = parsed.forbidden;
      group.hasRequired = parsed.required.length > 0;
    } else if (part === "member_of") {
      const parsed = memberOfParam(query, version, key);
      group.memberOf = parsed?.memberOf ?? [];
      group.notMemberOf = parsed?.notMemberOf ?? [];
      group.hasMemberOf = group.memberOf.length > 0 || group.notMemberOf.length > 0;
    } else {
      const uuid = value.trim();
      if (!isUuid(uuid))
        throw badRequest(`${INVALID}: Expected 'in_tree' parameter to be a format of uuid. Got: ${value}.`);
      group.inTree = normalizeUuid(uuid);
    }
  }
  return [...groups.values()];
}

function parseSameSubtree(query: URLSearchParams): string[][] {
  return query.getAll("same_subtree").map((value) => {
    const suffixes = [...new Set(value.split(",").map((s) => s.trim()))];
    if (suffixes.includes(""))
      throw badRequest(
        "Empty string (unsuffixed group) can not be specified in `same_subtree` ",
        PLACEMENT_CODES.queryBadValue,
      );
    return suffixes;
  });
}

const pythonList = (items: readonly string[]) => `[${items.map((i) => `'${i}'`).join(", ")}]`;

/** From 1.36: groups without resources are allowed inside `same_subtree` only. */
function checkResourceless(groups: readonly ParsedGroup[], sameSubtree: readonly string[][]): void {
  const resourceless = groups.filter((g) => Object.keys(g.resources).length === 0).map((g) => g.suffix);
  if (resourceless.length === groups.length)
    throw badRequest(
      "There must be at least one resources or resources[$S] parameter.",
      PLACEMENT_CODES.queryMissingValue,
    );
  const inSubtrees = sameSubtree.flat();
  const bad = resourceless.filter((suffix) => !inSubtrees.includes(suffix));
  if (bad.length > 0)
    throw badRequest(
      `Resourceless suffixed group request should be specified in \`same_subtree\` query param: bad group(s) - ${pythonList(bad)}.`,
      PLACEMENT_CODES.queryBadValue,
    );
  const known = groups.map((g) => g.suffix);
  const unknown = [...new Set(inSubtrees)].filter((suffix) => !known.includes(suffix));
  if (unknown.length > 0)
    throw badRequest(
      `Real suffixes should be specified in \`same_subtree\`: ${pythonList(unknown)} not found in ${pythonList(known)}.`,
      PLACEMENT_CODES.queryBadValue,
    );
}

/** Before 1.36: every group needs resources. */
function checkOrphans(groups: readonly ParsedGroup[]): void {
  const orphans = (has: (g: ParsedGroup) => boolean, prefix: string) =>
    groups
      .filter((g) => has(g) && Object.keys(g.resources).length === 0)
      .map((g) => `${prefix}${g.suffix}`)
      .join(", ");
  const traits = orphans((g) => g.hasRequired, "required");
  if (traits !== "")
    throw badRequest(
      `All traits parameters must be associated with resources.  Found the following orphaned traits keys: ${traits}`,
    );
  const aggregates = orphans((g) => g.hasMemberOf, "member_of");
  if (aggregates !== "")
    throw badRequest(
      `All member_of parameters must be associated with resources. Found the following orphaned member_of keys: ${aggregates}`,
    );
  if (groups.some((g) => Object.keys(g.resources).length === 0))
    throw badRequest("All request groups must specify resources.");
  if (groups.length === 0)
    throw badRequest("At least one request group (`resources` or `resources{$S}`) is required.");
}

/** From 1.22: a group may not require (any of) traits it also forbids. */
function checkConflicts(groups: readonly ParsedGroup[]): void {
  const conflicts = groups
    .flatMap((g) =>
      (g.required ?? [])
        .filter((anyOf) => anyOf.every((t) => (g.forbidden ?? []).includes(t)))
        .map((anyOf) => `required${g.suffix}: (${[...anyOf].sort().join(", ")})`),
    )
    .sort();
  if (conflicts.length > 0)
    throw badRequest(
      `Conflicting required and forbidden traits found in the following traits keys: ${conflicts.join(", ")}`,
    );
}

/** `root_required` (1.35): once, plain and `!` names, no conflicts. */
function parseRootRequired(query: URLSearchParams, version: Microversion): Partial<CandidateRequest> {
  const values = query.getAll("root_required");
  if (values.length === 0) return {};
  if (values.length > 1)
    throw badRequest(
      "Query parameter 'root_required' may be specified only once.",
      PLACEMENT_CODES.illegalDuplicateQueryParameter,
    );
  const value = values[0] as string;
  if (value.startsWith("in:"))
    throw badRequest(
      `${INVALID}: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1.39. Got: ${value}`,
    );
  const parsed = parseRequired([value], version);
  const required = [...new Set(parsed.required.flat())];
  const forbidden = [...new Set(parsed.forbidden)];
  const conflicts = required.filter((t) => forbidden.includes(t));
  if (conflicts.length > 0)
    throw badRequest(
      `Conflicting required and forbidden traits found in root_required: ${conflicts.join(", ")}`,
      PLACEMENT_CODES.queryBadValue,
    );
  return { rootRequired: required, rootForbidden: forbidden };
}

export async function candidateRequest(
  query: URLSearchParams,
  version: Microversion,
  engine: Engine,
): Promise<CandidateRequest> {
  checkSchema(query, version);
  const request: CandidateRequest = { groups: [] };
  const limit = query.get("limit");
  if (limit !== null) request.limit = Number(limit);
  if (!atLeast(version, 29)) request.oneProviderPerTree = true;
  const policy = query.get("group_policy");
  if (policy === "none" || policy === "isolate") request.groupPolicy = policy;
  Object.assign(request, parseRootRequired(query, version));
  const sameSubtree = parseSameSubtree(query);
  if (sameSubtree.length > 0) request.sameSubtree = sameSubtree;

  const groups = parseGroups(query, version);
  if (atLeast(version, 36)) checkResourceless(groups, sameSubtree);
  else checkOrphans(groups);
  if (atLeast(version, 22)) checkConflicts(groups);
  if (policy === null && groups.filter((g) => g.suffix !== "").length > 1)
    throw badRequest(
      'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.',
    );

  // Names are checked against the catalog last, as Placement's search does.
  await checkTraitsExist([...(request.rootRequired ?? []), ...(request.rootForbidden ?? [])], engine);
  for (const group of groups) {
    await checkResourceClassesExist(Object.keys(group.resources), engine);
    await checkTraitsExist([...(group.required ?? []).flat(), ...(group.forbidden ?? [])], engine);
  }
  request.groups = groups.map(({ hasRequired: _r, hasMemberOf: _m, ...group }) => group);
  return request;
}
