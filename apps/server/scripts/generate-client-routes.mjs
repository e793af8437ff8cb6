// Rewrites @berth/client's route table from berthd's routes (run after a build; see src/routes/client-routes.ts).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLIENT_ROUTES_FILE, renderClientRoutes } from "../dist/routes/client-routes.js";
import { allRoutes } from "../dist/routes/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
writeFileSync(join(root, CLIENT_ROUTES_FILE), renderClientRoutes(allRoutes));
console.log(`wrote ${CLIENT_ROUTES_FILE} (${allRoutes.length} routes + raw endpoints)`);
