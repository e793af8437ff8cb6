export {
  allocationCandidates,
  type Candidate,
  type CandidateAnswer,
  type CandidateRequest,
  type RequestGroup,
} from "./candidates.js";
export { canProvide, filterProviders, type ProviderFilter, type ProviderUsage } from "./filter.js";
export { providerMessages } from "./messages.js";
export { inOneSubtree, wouldLoop } from "./tree.js";
