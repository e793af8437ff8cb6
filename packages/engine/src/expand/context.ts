import type { EffectiveServerConfig } from "@berth/api-types";
import type { ClusterModel } from "../model/cluster-model.js";
import type { Store } from "../store/port.js";

/**
 * What expansion reads, and nothing more: the catalog (profiles, flavors,
 * images), the instance a copy copies, the model's projects, groups, members and placement groups, the
 * server's effective configuration, and the catalog epoch that says how long
 * a cached expansion stays valid. The engine's runtime satisfies it; steps
 * take this narrow port so expansion never depends on the runtime machinery.
 */
export interface ExpandContext {
  readonly store: Pick<Store, "profiles" | "flavors" | "images" | "getInstance">;
  readonly model: Pick<ClusterModel, "projects" | "groups" | "member" | "placementGroup">;
  readonly effective: Pick<EffectiveServerConfig, "defaultArchitecture">;
  catalogEpoch(): number | undefined;
}
