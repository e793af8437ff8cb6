export { checkInvariants } from "./check.js";
