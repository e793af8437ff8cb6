/**
 * Subpath `@berth/engine/store-contract`: the contract suite every Store
 * implementation runs against itself. Imports vitest (a peer dependency).
 */
export { runStoreContract } from "./store/contract.js";
export { allocationsOf, inventory, newInstance, newMember } from "./store/fixtures.js";
