/**
 * The entry point of the bundle (`dist/berth-iallocator.cjs`, written by
 * `scripts/bundle.mjs`): the command line for `main.ts`, and the allocator
 * itself for the test that holds the bundle's answers to the modules'.
 */
export { main } from "./cli.js";
export { iallocate } from "./iallocate.js";
