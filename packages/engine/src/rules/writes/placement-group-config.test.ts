import { describe, expect, it } from "vitest";
import {
  checkedSettings,
  placementGroupConfigOf,
  placementGroupSettingsOf,
  placementGroupTopology,
  withLegacyFields,
} from "./placement-group-config.js";

const message = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("placement group config (LXD 6.6's keys and texts, Berth's topology)", () => {
  it("splits a whole map into policy, rigor and the other keys, and back", () => {
    const settings = checkedSettings({
      policy: "spread",
      rigor: "permissive",
      topology: "rack",
      "user.a": "1",
    });
    expect(settings).toEqual({
      policy: "spread",
      rigor: "permissive",
      config: { topology: "rack", "user.a": "1" },
    });
    expect(placementGroupConfigOf(settings)).toEqual({
      policy: "spread",
      rigor: "permissive",
      topology: "rack",
      "user.a": "1",
    });
    expect(placementGroupTopology(settings)).toBe("rack");
    expect(placementGroupTopology({ config: {} })).toBeNull();
  });

  it("answers LXD's validation texts", () => {
    expect(message(() => checkedSettings({ policy: "spread" }))).toBe('Missing required config key: "rigor"');
    expect(message(() => checkedSettings({ rigor: "strict" }))).toBe('Missing required config key: "policy"');
    expect(message(() => checkedSettings({ policy: "spread", rigor: "strict", scope: "host" }))).toBe(
      'Invalid placement group key "scope"',
    );
    expect(message(() => checkedSettings({ policy: "pack", rigor: "strict" }))).toBe(
      'Invalid placement group key "policy" value',
    );
    expect(message(() => checkedSettings({ policy: "spread", rigor: "hard" }))).toBe(
      'Invalid placement group key "rigor" value',
    );
    expect(
      message(() => checkedSettings({ policy: "spread", rigor: "strict", topology: "topology.rack" })),
    ).toMatch(
      /^Invalid placement group key "topology" value: "topology.rack" is neither "failure_domain" nor a topology name/,
    );
    expect(checkedSettings({ policy: "spread", rigor: "strict", topology: "failure_domain" }).config).toEqual(
      {
        topology: "failure_domain",
      },
    );
  });

  it("merges Berth's earlier top-level fields: rigor strict by default without config, a disagreement refused", () => {
    expect(placementGroupSettingsOf({ policy: "compact" })).toEqual({
      policy: "compact",
      rigor: "strict",
      config: {},
    });
    // With a config map, LXD's rule holds: rigor is required.
    expect(message(() => placementGroupSettingsOf({ policy: "spread", config: { topology: "rack" } }))).toBe(
      'Missing required config key: "rigor"',
    );
    expect(
      placementGroupSettingsOf({ rigor: "permissive", config: { policy: "spread", rigor: "permissive" } }),
    ).toEqual({
      policy: "spread",
      rigor: "permissive",
      config: {},
    });
    expect(message(() => withLegacyFields({}, { policy: "compact", config: { policy: "spread" } }))).toBe(
      'Placement group key "policy" given twice with different values: "compact" as a field, "spread" in config',
    );
  });
});
