import { useFlavors } from "../api/queries.js";

/**
 * The instance-shape fields the scriptlet workbench and the capacity panel
 * both ask for, so the two forms read and behave alike. Each takes the id
 * its label points at (from the caller's `useId`) and reports plain strings.
 */

/** A flavor picker over the server's flavors; `""` is "no flavor". */
export function FlavorField(props: {
  id: string;
  value: string;
  noneLabel: string;
  onChange(flavor: string): void;
}) {
  const flavors = useFlavors();
  return (
    <span className="field">
      <label htmlFor={props.id}>Flavor</label>
      <select id={props.id} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.noneLabel}</option>
        {(flavors.data ?? []).map((flavor) => (
          <option key={flavor.name} value={flavor.name}>
            {flavor.name}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Instance config as `key=value` lines (parsed by `parseConfig`). */
export function ConfigField(props: {
  id: string;
  value: string;
  rows: number;
  onChange(config: string): void;
}) {
  return (
    <span className="field wide">
      <label htmlFor={props.id}>Config (key=value per line)</label>
      <textarea
        id={props.id}
        rows={props.rows}
        value={props.value}
        placeholder={"limits.cpu=2\nlimits.memory=4GiB"}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </span>
  );
}

/** A member name or `@group` to place on, as `--target` takes it. */
export function TargetField(props: {
  id: string;
  value: string;
  label: string;
  onChange(target: string): void;
}) {
  return (
    <span className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input id={props.id} value={props.value} onChange={(event) => props.onChange(event.target.value)} />
    </span>
  );
}
