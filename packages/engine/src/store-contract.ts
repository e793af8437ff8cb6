/**
 * Subpath `@berth/engine/store-contract`: the contract suite every Store
 * implementation runs against itself. Imports vitest (a peer dependency).
 *
 * @module @berth/engine/store-contract
 */

export { allocationsOf, inventory, newInstance, newMember } from "./testing/fixtures.js";
export { runStoreContract } from "./testing/store-contract/contract.js";
