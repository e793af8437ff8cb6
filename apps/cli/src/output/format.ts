import { usageError } from "../exit-codes.js";

export const OUTPUT_FORMATS = ["table", "json", "yaml", "csv", "compact"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(value: string): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw usageError(`Invalid format "${value}": expected one of ${OUTPUT_FORMATS.join(", ")}`);
}

/** json and yaml carry the API objects themselves, with exact numbers. */
export function isDocumentFormat(format: OutputFormat): format is "json" | "yaml" {
  return format === "json" || format === "yaml";
}
