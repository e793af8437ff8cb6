export type { MemberSide } from "./member-side.js";
