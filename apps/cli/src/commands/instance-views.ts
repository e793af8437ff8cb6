import type { Instance } from "@berth/api-types";
import type { Colors } from "../output/colour.js";
import type { Column } from "../output/view.js";

/** Reservations read "RESERVED"; instances show the status the server keeps. */
export function instanceStatus(instance: Instance, colors: Colors): string {
  if (instance.forthcoming) return colors.yellow("RESERVED");
  return instance.status.toUpperCase();
}

export const instanceColumns: Column<Instance>[] = [
  { header: "NAME", human: (i) => i.name || "-", exact: (i) => i.name },
  { header: "STATUS", human: instanceStatus },
  {
    header: "TYPE",
    human: (i) => (i.type === "virtual-machine" ? "VIRTUAL-MACHINE" : "CONTAINER"),
    exact: (i) => i.type,
  },
  { header: "LOCATION", human: (i, c) => c.cyan(i.location), exact: (i) => i.location },
  { header: "FLAVOR", human: (i) => i.flavor, exact: (i) => i.flavor },
  // The last 8 hex digits: the random ones (a time-ordered id's first 8 repeat for about a minute).
  { header: "UUID", human: (i) => i.uuid.slice(-8), exact: (i) => i.uuid },
];

export function instanceFields(i: Instance): [string, string][] {
  const fields: [string, string][] = [
    ["Name", i.name || "(unnamed reservation)"],
    ["UUID", i.uuid],
    ["Status", i.forthcoming ? "Reserved" : i.status],
    ["Type", i.type],
    ["Architecture", i.architecture],
    ["Location", i.location],
    ["Project", i.project],
    ["Flavor", i.flavor || "-"],
    ["Profiles", i.profiles.join(", ") || "-"],
    ["Created", i.created_at],
  ];
  if (i.description) fields.push(["Description", i.description]);
  const config = Object.entries(i.expanded_config);
  if (config.length > 0) {
    fields.push(["Config", ""]);
    for (const [key, value] of config) fields.push([`  ${key}`, value]);
  }
  return fields;
}
