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
