export { type JsonSql, jsonSql } from "./json-sql.js";
export { inList, listParam } from "./lists.js";
export { rowLock } from "./row-locks.js";
export {
  first,
  numbered,
  pgRunner,
  type RawStatements,
  type SqlParam,
  type SqlRow,
  type SqlRunner,
  sqliteRunner,
} from "./runner.js";
export { boolValue, jsonParam, jsonValue, optionalJson, optionalText, textValue } from "./values.js";
