import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Router } from "wouter";
import { resumeSession, type Session, signOut } from "../session/session.js";
import { SessionContext, type SessionValue } from "../session/session-context.js";
import { ErrorNotice } from "../ui/ErrorNotice.js";
import { Shell } from "./Shell.js";
import { SignIn } from "./SignIn.js";

/**
 * The signed-in console. Mounted once per session (keyed by it), so its
 * query cache is too: signing out, or in as someone else, forgets what
 * the last token could see.
 */
function SignedIn({ value }: { value: SessionValue }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1, staleTime: 1_000 } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <SessionContext.Provider value={value}>
        <Router base="/ui">
          <Shell />
        </Router>
      </SessionContext.Provider>
    </QueryClientProvider>
  );
}

/** The whole console: sign-in gate, then the shell with its views, all under /ui/. */
export function Console() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    resumeSession().then(setSession, (error: unknown) => {
      setFailure(error);
      setSession(null);
    });
  }, []);
  const enter = useCallback((next: Session) => {
    setGeneration((n) => n + 1);
    setSession(next);
  }, []);
  const leave = useCallback(() => {
    signOut();
    setSession(null);
  }, []);
  const value = useMemo<SessionValue | null>(
    () => (session ? { session, signOut: leave } : null),
    [session, leave],
  );
  if (session === undefined) {
    return (
      <main id="main" className="center" aria-busy="true">
        <p>Connecting to berthd…</p>
      </main>
    );
  }
  if (value === null) {
    return (
      <Router base="/ui">
        {failure !== null ? <ErrorNotice error={failure} title="Cannot reach berthd" /> : null}
        <SignIn onSignedIn={enter} />
      </Router>
    );
  }
  return <SignedIn key={generation} value={value} />;
}
