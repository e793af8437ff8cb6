import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, Redirect, Route, Switch, useLocation } from "wouter";
import { keys } from "../api/queries.js";
import { ClusterView } from "../cluster/ClusterView.js";
import { ago } from "../format/amounts.js";
import { InstancesView } from "../instances/InstancesView.js";
import { liveSource } from "../live/live.js";
import { useLiveUpdates } from "../live/use-live-updates.js";
import { OperationsView } from "../operations/OperationsView.js";
import { WorkbenchView } from "../scriptlet/WorkbenchView.js";
import { isAdmin } from "../session/session.js";
import { useSession } from "../session/session-context.js";

const VIEWS = [
  { path: "/cluster", label: "Cluster", admin: false },
  { path: "/instances", label: "Instances", admin: false },
  { path: "/scriptlet", label: "Scriptlet", admin: true },
  { path: "/operations", label: "Operations", admin: true },
] as const;

function NavLink({ path, label }: { path: string; label: string }) {
  const [location] = useLocation();
  const current = location === path || location.startsWith(`${path}/`);
  return (
    <Link
      href={path}
      className={current ? "nav-link current" : "nav-link"}
      aria-current={current ? "page" : undefined}
    >
      {label}
    </Link>
  );
}

/** "Live · updated 2 s ago": what the live source last did, refreshed every second. */
function LiveStatus({ lastChange, description }: { lastChange: Date | null; description: string }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="live" title={`Live updates: ${description}`}>
      <span className="live-dot" aria-hidden="true" /> Live ({description})
      {lastChange !== null ? ` · updated ${ago(lastChange)}` : ""}
    </span>
  );
}

/** Header, navigation and the views; starts the live source for as long as the session lasts. */
export function Shell() {
  const { session, signOut } = useSession();
  const admin = isAdmin(session.server);
  const client = useQueryClient();
  const membersKnown = useRef(0);
  const source = useMemo(
    () =>
      liveSource(window.location.search, () => {
        membersKnown.current = (client.getQueryData(keys.members) as unknown[] | undefined)?.length ?? 0;
        return membersKnown.current;
      }),
    [client],
  );
  const { lastChange } = useLiveUpdates(source);
  const who =
    session.server.auth_user_method === "unix"
      ? "local socket (admin)"
      : `token "${session.server.auth_user_name}"${admin ? " (admin)" : ` (projects: ${session.server.auth_user_projects?.join(", ")})`}`;
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Berth</span>
        <nav aria-label="Views">
          {VIEWS.filter((view) => admin || !view.admin).map((view) => (
            <NavLink key={view.path} path={view.path} label={view.label} />
          ))}
        </nav>
        <LiveStatus lastChange={lastChange} description={source.description} />
        <span className="who">Signed in: {who}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Switch>
          <Route path="/cluster" component={ClusterView} />
          <Route path="/instances/:project/:name">
            {(params) => (
              <InstancesView
                selected={{
                  project: decodeURIComponent(params.project),
                  name: decodeURIComponent(params.name),
                }}
              />
            )}
          </Route>
          <Route path="/instances">{() => <InstancesView selected={null} />}</Route>
          {admin ? <Route path="/scriptlet" component={WorkbenchView} /> : null}
          {admin ? <Route path="/operations" component={OperationsView} /> : null}
          <Route>
            <Redirect to="/cluster" replace />
          </Route>
        </Switch>
      </main>
    </>
  );
}
