/**
 * `GET /allocation_candidates` (1.10) for the un-grouped request Nova's
 * scheduler sends: parses the query per microversion and answers the
 * engine's candidates (`engine.providers.candidates`), written by
 * `candidates-json.ts`.
 */
import type { PlacementRoute } from "../placement-route.js";
import { candidateRequest } from "./candidate-query.js";
import { candidatesJson } from "./candidates-json.js";

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
      const requested = new Set(wanted.groups.flatMap((g) => Object.keys(g.resources)));
      return { json: candidatesJson(answer, request.version, requested), lastModified: new Date() };
    },
  },
];
