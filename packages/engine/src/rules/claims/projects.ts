import type { NewInstance } from "../../store/port.js";
import { projectMissingError } from "./failures.js";

/** Every record's project exists (the first one that does not is named). */
export function requireProjects(records: readonly NewInstance[], projects: ReadonlySet<string>): void {
  for (const record of records) {
    if (!projects.has(record.project)) throw projectMissingError(record.project);
  }
}
