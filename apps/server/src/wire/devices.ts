/**
 * A copy of a record's devices for an answer (the answer must not share the
 * engine's objects). Written out rather than `structuredClone`, which took
 * about 0.6 µs for an empty map and 2 µs for two devices where this takes
 * under 0.1 µs (perf-http-3). `Object.fromEntries` defines each key as data,
 * so a device named `__proto__` is copied like any other.
 */
export function copyDevices(
  devices: Readonly<Record<string, Readonly<Record<string, string>>>>,
): Record<string, Record<string, string>> {
  return Object.fromEntries(Object.entries(devices).map(([name, device]) => [name, { ...device }]));
}
