import { describe, expect, it } from "vitest";
import { selfCommands, shellWord } from "./self-command.js";

describe("the commands berthd prints for itself and the CLI", () => {
  it("repeats the repository wrapper as it was typed", () => {
    expect(
      selfCommands({ BERTHD_COMMAND: "./berthd", BERTH_COMMAND: "./berth" }, "/x/main.js", "/x"),
    ).toEqual({
      berthd: "./berthd",
      berth: "./berth",
    });
  });

  it("names the entry point with node, relative to the folder it runs in when inside it", () => {
    const commands = selfCommands({}, "/repo/apps/server/dist/main.js", "/repo");
    expect(commands.berthd).toBe("node apps/server/dist/main.js");
    // No checkout's CLI beside /repo/apps/server here: the installed command.
    expect(commands.berth).toBe("berth");
    expect(selfCommands({}, "/repo/apps/server/dist/main.js", "/elsewhere").berthd).toBe(
      "node /repo/apps/server/dist/main.js",
    );
  });

  it("quotes what a shell would split", () => {
    expect(shellWord("/home/me/my repo/berthd")).toBe("'/home/me/my repo/berthd'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("/tmp/berth.db")).toBe("/tmp/berth.db");
  });
});
