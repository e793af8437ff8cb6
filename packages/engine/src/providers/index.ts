export {
  allocationCandidates,
  type Candidate,
  type CandidateAnswer,
  type CandidateRequest,
  type RequestGroup,
} from "./candidates.js";
export { type AllocationRequest, Consumers, type UsageQuery } from "./consumers.js";
export { canProvide, filterProviders, type ProviderFilter, type ProviderUsage } from "./filter.js";
export { providerMessages } from "./messages.js";
export {
  type NewProvider,
  type ProviderChanges,
  type ProviderRefusal,
  Providers,
  type TraitQuery,
} from "./providers.js";
export type { ReshapeRequest } from "./reshaper.js";
export { inOneSubtree, wouldLoop } from "./tree.js";
