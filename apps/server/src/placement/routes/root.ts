/** `GET /`: Placement's version document, open to everyone (no token needed). */
import { formatMicroversion, MAX_MICROVERSION, MIN_MICROVERSION } from "../microversion.js";
import type { PlacementRoute } from "../placement-route.js";

export const rootRoutes: PlacementRoute[] = [
  {
    method: "GET",
    path: "/",
    policy: "placement:root",
    handle: async () => ({
      body: {
        versions: [
          {
            id: "v1.0",
            max_version: formatMicroversion(MAX_MICROVERSION),
            min_version: formatMicroversion(MIN_MICROVERSION),
            status: "CURRENT",
            links: [{ rel: "self", href: "" }],
          },
        ],
      },
      lastModified: new Date(),
    }),
  },
];
