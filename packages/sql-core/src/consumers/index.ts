export {
  insertConsumers,
  instanceIdsAmong,
  listConsumers,
  loadConsumers,
  readPlacementProviders,
  usedSums,
} from "./consumer-rows.js";
export {
  type ConsumerWriteSide,
  claimConsumers,
  type ReshapeSide,
  reshapeConsumers,
} from "./consumer-writes.js";
