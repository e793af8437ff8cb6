import { type FormEvent, useId, useState } from "react";
import { type Session, signIn } from "../session/session.js";
import { errorText } from "../ui/ErrorNotice.js";

/** Sign in with an API token (the same bearer tokens as every TCP client; see apps/server/README.md "Access"). */
export function SignIn({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(token));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <main id="main" className="signin">
      <h1>Berth console</h1>
      <form onSubmit={(event) => void submit(event)} aria-describedby={hintId}>
        <label htmlFor="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        <p id={hintId} className="hint">
          An admin token sees the whole cluster; a project token sees its projects. Create one in a terminal,
          in the folder berthd was started in (the repository, for <code>pnpm start</code>):{" "}
          <code>./berthd token create me --admin</code> (or <code>--project P</code>; add{" "}
          <code>--db PATH</code> when berthd runs on another database than berth.db there). berthd prints the
          exact command when it starts without tokens. The token is kept in this tab only.
        </p>
        {error !== null ? (
          <p className="notice notice-error" role="alert">
            {errorText(error)}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy || token.trim() === ""}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
