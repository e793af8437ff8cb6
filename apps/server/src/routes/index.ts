import { capacityRoutes } from "./capacity.js";
import { flavorRoutes } from "./flavors.js";
import { groupRoutes } from "./groups.js";
import { imageRoutes } from "./images.js";
import { instanceRoutes } from "./instances.js";
import { memberRoutes } from "./members.js";
import { operationRoutes } from "./operations.js";
import { placementGroupRoutes } from "./placement-groups.js";
import { profileRoutes } from "./profiles.js";
import { projectRoutes } from "./projects.js";
import { rebalanceRoutes } from "./rebalance.js";
import { resourceClassRoutes } from "./resource-classes.js";
import type { RouteSpec } from "./route-spec.js";
import { scriptletRoutes } from "./scriptlet.js";
import { serverRoutes } from "./server.js";
import { tokenRoutes } from "./tokens.js";
import { warningRoutes } from "./warnings.js";

/**
 * Every enveloped route of berthd, in documentation order. Static paths come
 * before parameterised siblings (`/1.0/instances/bulk` before `/1.0/instances/:name`).
 */
export const allRoutes: readonly RouteSpec[] = [
  ...serverRoutes,
  ...scriptletRoutes,
  ...memberRoutes,
  ...groupRoutes,
  ...rebalanceRoutes,
  ...capacityRoutes,
  ...resourceClassRoutes,
  ...flavorRoutes,
  ...projectRoutes,
  ...profileRoutes,
  ...imageRoutes,
  ...placementGroupRoutes,
  ...instanceRoutes,
  ...tokenRoutes,
  ...operationRoutes,
  ...warningRoutes,
];
