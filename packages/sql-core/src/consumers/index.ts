export {
  insertConsumers,
  instanceIdsAmong,
  listConsumers,
  loadConsumers,
  usedSums,
} from "./consumer-rows.js";
export {
  type ConsumerWriteSide,
  claimConsumers,
  type ReshapeSide,
  reshapeConsumers,
} from "./consumer-writes.js";
