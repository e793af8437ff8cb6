export type { IallocatorAnswer } from "./answer.js";
export { iallocate } from "./iallocate.js";
export { type IallocatorInput, iallocatorInput } from "./input.js";
