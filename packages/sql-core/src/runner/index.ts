export { inList, listParam } from "./lists.js";
export { numbered, pgRunner, type SqlParam, type SqlRunner, sqliteRunner } from "./runner.js";
