/** Every Placement route berthd serves (see README "Berth as OpenStack Placement"). */
import type { PlacementRoute } from "./placement-route.js";
import { resourceClassRoutes } from "./routes/resource-classes.js";
import { rootRoutes } from "./routes/root.js";

export const placementRoutes: readonly PlacementRoute[] = [...rootRoutes, ...resourceClassRoutes];
