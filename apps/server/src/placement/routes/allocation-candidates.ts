/**
 * `GET /allocation_candidates` (1.10) for the un-grouped request Nova's
 * scheduler sends: parses the query per microversion and renders the
 * engine's candidates (`engine.providers.candidates`) as
 * `allocation_requests` (a list before 1.12, keyed by provider from 1.12,
 * `mappings` from 1.34) and `provider_summaries` (traits from 1.17, every
 * class of inventory from 1.27, tree uuids from 1.29).
 */
import type { CandidateAnswer } from "@berth/engine";
import { displayedCapacity } from "@berth/resources";
import { atLeast, type Microversion } from "../microversion.js";
import type { PlacementRequest, PlacementRoute } from "../placement-route.js";
import { candidateRequest } from "./candidate-query.js";

function allocationRequests(answer: CandidateAnswer, version: Microversion): unknown[] {
  return answer.candidates.map(({ allocations, mappings }) => {
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
    if (atLeast(version, 34)) body.mappings = mappings;
    return body;
  });
}

/**
 * Placement lists a provider's traits in the order the traits were
 * created: the standard os-traits ones (made when its database is set up)
 * before any CUSTOM_ one; the gabbi tests compare these lists literally.
 */
function inPlacementOrder(traits: readonly string[]): string[] {
  const custom = (name: string) => name.startsWith("CUSTOM_");
  return [...traits.filter((t) => !custom(t)), ...traits.filter(custom)];
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
    if (atLeast(version, 17)) summary.traits = inPlacementOrder(provider.traits);
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
      const wanted = await candidateRequest(request.query, request.version, request.engine);
      const answer = await request.engine.providers.candidates(wanted);
      // Before 1.27 a summary lists only the requested classes.
      const requested = wanted.groups.flatMap((g) => Object.keys(g.resources));
      return {
        body: {
          allocation_requests: allocationRequests(answer, request.version),
          provider_summaries: await providerSummaries(answer, request, requested),
        },
        lastModified: new Date(),
      };
    },
  },
];
