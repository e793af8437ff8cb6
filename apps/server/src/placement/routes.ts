/** Every Placement route berthd serves (see README "Berth as OpenStack Placement"). */
import type { PlacementRoute } from "./placement-route.js";
import { aggregateRoutes } from "./routes/aggregates.js";
import { allocationCandidateRoutes } from "./routes/allocation-candidates.js";
import { allocationRoutes } from "./routes/allocations.js";
import { inventoryRoutes } from "./routes/inventories.js";
import { reshaperRoutes } from "./routes/reshaper.js";
import { resourceClassRoutes } from "./routes/resource-classes.js";
import { resourceProviderRoutes } from "./routes/resource-providers.js";
import { rootRoutes } from "./routes/root.js";
import { traitRoutes } from "./routes/traits.js";
import { usageRoutes } from "./routes/usages.js";

export const placementRoutes: readonly PlacementRoute[] = [
  ...rootRoutes,
  ...resourceClassRoutes,
  ...resourceProviderRoutes,
  ...inventoryRoutes,
  ...traitRoutes,
  ...aggregateRoutes,
  ...allocationRoutes,
  ...usageRoutes,
  ...allocationCandidateRoutes,
  ...reshaperRoutes,
];
