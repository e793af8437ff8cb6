import { describe, expect, it } from "vitest";
import type { ScriptletLogger } from "./port.js";
import { RunLog } from "./run-log.js";

const meta = { instance: "c1", project: "default", reason: "new" };

describe("RunLog", () => {
  it("keeps lines and forwards them with instance, project and reason", () => {
    const seen: unknown[] = [];
    const logger: ScriptletLogger = { log: (line) => seen.push(line) };
    const log = new RunLog(100, logger, meta);
    log.emit({ level: "info", message: "hello" });
    expect(log.lines()).toEqual([{ level: "info", message: "hello" }]);
    expect(seen).toEqual([{ level: "info", message: "hello", ...meta }]);
  });

  it("drops lines past the budget and says how many", () => {
    const seen: unknown[] = [];
    const log = new RunLog(10, { log: (line) => seen.push(line) }, meta);
    log.emit({ level: "info", message: "12345" });
    log.emit({ level: "warn", message: "123456" }); // would pass the budget
    log.emit({ level: "info", message: "1" }); // dropped too: order is kept, no gaps filled
    const notice = {
      level: "warn",
      message: "log output truncated: 2 more lines dropped (limit 10 characters per run)",
    };
    expect(log.lines()).toEqual([{ level: "info", message: "12345" }, notice]);
    expect(seen).toEqual([
      { level: "info", message: "12345", ...meta },
      { ...notice, ...meta },
    ]);
  });

  it("keeps going when the server logger fails", () => {
    const log = new RunLog(
      100,
      {
        log: () => {
          throw new Error("disk full");
        },
      },
      meta,
    );
    log.emit({ level: "error", message: "still here" });
    expect(log.lines()).toEqual([{ level: "error", message: "still here" }]);
  });
});
