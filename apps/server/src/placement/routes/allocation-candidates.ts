/**
 * `GET /allocation_candidates` (1.10) for the un-grouped request Nova's
 * scheduler sends: parses the query per microversion and renders the
 * engine's candidates (`engine.providers.candidates`) as
 * `allocation_requests` (a list before 1.12, keyed by provider from 1.12,
 * `mappings` from 1.34) and `provider_summaries` (traits from 1.17, every
 * class of inventory from 1.27, tree uuids from 1.29).
 */
import type { CandidateAnswer, CandidateRequest } from "@berth/engine";
import { displayedCapacity } from "@berth/resources";
import { atLeast, type Microversion } from "../microversion.js";
import { badRequest } from "../placement-error.js";
import type { PlacementRequest, PlacementRoute } from "../placement-route.js";
import { checkQueryKeys, isUuid, normalizeUuid } from "../query.js";
import { memberOfParam, requiredParam, resourcesParam } from "./provider-query.js";

const INVALID = "Invalid query string parameters";

function queryKeys(version: Microversion): string[] {
  const keys = ["resources"];
  if (atLeast(version, 16)) keys.push("limit");
  if (atLeast(version, 17)) keys.push("required");
  if (atLeast(version, 21)) keys.push("member_of");
  if (atLeast(version, 31)) keys.push("in_tree");
  return keys;
}

async function candidateRequest({ query, version, engine }: PlacementRequest): Promise<CandidateRequest> {
  checkQueryKeys(query, queryKeys(version));
  const raw = query.get("resources");
  if (raw === null) {
    if (query.has("member_of"))
      throw badRequest(
        "All member_of parameters must be associated with resources. Found the following orphaned member_of keys: member_of",
      );
    throw badRequest(`${INVALID}: 'resources' is a required property`);
  }
  const request: CandidateRequest = { resources: await resourcesParam(raw, engine) };
  if (!atLeast(version, 29)) request.oneProviderPerTree = true;
  // Placement's schema reads the first `limit` when several are given.
  const limit = query.get("limit");
  if (limit !== null) {
    if (!/^[1-9][0-9]*$/.test(limit))
      throw badRequest(
        `${INVALID}: '${limit}' does not match '^[1-9][0-9]*$'\n\nFailed validating 'pattern'`,
      );
    request.limit = Number(limit);
  }
  const required = await requiredParam(query, version, engine);
  if (required !== undefined) {
    request.required = required.required;
    request.forbidden = required.forbidden;
  }
  const memberOf = memberOfParam(query, version);
  if (memberOf !== undefined) {
    request.memberOf = memberOf.memberOf;
    request.notMemberOf = memberOf.notMemberOf;
  }
  const inTree = query.get("in_tree");
  if (inTree !== null) {
    if (!isUuid(inTree))
      throw badRequest(`${INVALID}: Expected 'in_tree' parameter to be a format of uuid. Got: ${inTree}.`);
    request.inTree = normalizeUuid(inTree);
  }
  return request;
}

function allocationRequests(answer: CandidateAnswer, version: Microversion): unknown[] {
  return answer.candidates.map(({ allocations }) => {
    if (!atLeast(version, 12))
      return {
        allocations: Object.entries(allocations).map(([uuid, resources]) => ({
          resource_provider: { uuid },
          resources,
        })),
      };
    const body: Record<string, unknown> = {
      allocations: Object.fromEntries(
        Object.entries(allocations).map(([uuid, resources]) => [uuid, { resources }]),
      ),
    };
    // Every provider serves the un-grouped (unsuffixed) request group.
    if (atLeast(version, 34)) body.mappings = { "": Object.keys(allocations) };
    return body;
  });
}

async function providerSummaries(
  answer: CandidateAnswer,
  request: PlacementRequest,
  requested: readonly string[],
): Promise<Record<string, unknown>> {
  const { version, engine } = request;
  const usage = await engine.providers.usage();
  const out: Record<string, unknown> = {};
  for (const provider of answer.providers) {
    const used = usage.get(provider.uuid) ?? {};
    const resources: Record<string, { capacity: number; used: number }> = {};
    for (const [resourceClass, inventory] of Object.entries(provider.inventories)) {
      if (!atLeast(version, 27) && !requested.includes(resourceClass)) continue;
      resources[resourceClass] = { capacity: displayedCapacity(inventory), used: used[resourceClass] ?? 0 };
    }
    const summary: Record<string, unknown> = { resources };
    if (atLeast(version, 17)) summary.traits = provider.traits;
    if (atLeast(version, 29)) {
      summary.parent_provider_uuid = provider.parentUuid;
      summary.root_provider_uuid = provider.rootUuid;
    }
    out[provider.uuid] = summary;
  }
  return out;
}

export const allocationCandidateRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/allocation_candidates",
    since: 10,
    policy: "placement:allocation_candidates:list",
    handle: async (request) => {
      const wanted = await candidateRequest(request);
      const answer = await request.engine.providers.candidates(wanted);
      // Before 1.27 a summary lists only the requested classes of providers that give some.
      const requested = Object.keys(wanted.resources);
      const shown = atLeast(request.version, 29)
        ? answer
        : {
            ...answer,
            providers: answer.providers.filter((p) =>
              answer.candidates.some((c) => c.allocations[p.uuid] !== undefined),
            ),
          };
      return {
        body: {
          allocation_requests: allocationRequests(answer, request.version),
          provider_summaries: await providerSummaries(shown, request, requested),
        },
        lastModified: new Date(),
      };
    },
  },
];
