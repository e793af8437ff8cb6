/**
 * Topology keys: where a cluster member sits (`topology.rack=C1`,
 * `topology.room=3`), set in the member's config. A placement group with
 * config `topology=<name>` spreads or packs its instances per value of that
 * key instead of per member. The member's `failure_domain` counts as the
 * topology key `failure_domain`. One list of the rules for the member
 * config schema, the placement group config and the engine's ranker.
 */

/** The member config prefix of a topology key. */
export const TOPOLOGY_PREFIX = "topology.";

/** The topology key a member's `failure_domain` field stands for. */
export const FAILURE_DOMAIN_TOPOLOGY = "failure_domain";

/**
 * Topology names: lowercase letters, digits, `-` and `_`, starting with a
 * letter or digit, at most 63 characters (the name goes into config keys,
 * URLs of the console and CLI arguments as it is, so it stays plain).
 */
export const TOPOLOGY_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const TOPOLOGY_NAME_RULE =
  'lowercase letters, digits, "-" and "_", starting with a letter or digit, at most 63 characters';

/** Values: 1 to 255 characters, no control characters ("" unsets the key, as for any member config). */
const TOPOLOGY_VALUE_MAX = 255;

export function isTopologyName(name: string): boolean {
  return TOPOLOGY_NAME_PATTERN.test(name);
}

/** Why a member config key `topology.<name>` with `value` is refused, or undefined when it is fine. */
export function topologyKeyProblem(key: string, value: string): string | undefined {
  const name = key.slice(TOPOLOGY_PREFIX.length);
  if (name === FAILURE_DOMAIN_TOPOLOGY) {
    return 'the topology key "failure_domain" is the member\'s failure_domain field: set that instead';
  }
  if (!isTopologyName(name)) return `invalid topology name "${name}" (allowed: ${TOPOLOGY_NAME_RULE})`;
  if (value.length > TOPOLOGY_VALUE_MAX) return `topology value longer than ${TOPOLOGY_VALUE_MAX} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return "topology value with a control character";
  return undefined;
}

/** A member's value for topology key `name` (`failure_domain`: its field), or undefined without one. */
export function topologyValueOf(
  member: { failureDomain: string; config: Readonly<Record<string, string>> },
  name: string,
): string | undefined {
  if (name === FAILURE_DOMAIN_TOPOLOGY) return member.failureDomain;
  const value = member.config[TOPOLOGY_PREFIX + name];
  return value === undefined || value === "" ? undefined : value;
}
