export {
  allocationCandidates,
  type Candidate,
  type CandidateAnswer,
  type CandidateRequest,
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
export { wouldLoop } from "./tree.js";
