export { insertConsumers, readPlacementProviders } from "./consumer-rows.js";
