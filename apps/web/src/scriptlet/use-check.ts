import type { ScriptletCheckResult } from "@berth/api-types";
import { useEffect, useState } from "react";
import { useSession } from "../session/session-context.js";

/** How long typing must pause before the server checks the text. */
export const CHECK_DELAY_MS = 300;

/**
 * The server's check of `source` (`POST /1.0/scriptlet/check`), asked once
 * typing pauses; answers arriving after newer text are dropped. Null while
 * a check is due or running.
 */
export function useScriptletCheck(source: string): { check: ScriptletCheckResult | null; failure: unknown } {
  const { session } = useSession();
  const [answer, setAnswer] = useState<{ source: string; check: ScriptletCheckResult } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      session.api.checkScriptlet(source).then(
        (check) => {
          if (!current) return;
          setFailure(null);
          setAnswer({ source, check });
        },
        (error: unknown) => {
          if (current) setFailure(error);
        },
      );
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [session, source]);
  return { check: answer !== null && answer.source === source ? answer.check : null, failure };
}
