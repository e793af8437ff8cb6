import { createContext, useContext } from "react";
import type { Session } from "./session.js";

export interface SessionValue {
  session: Session;
  signOut(): void;
}

export const SessionContext = createContext<SessionValue | null>(null);

/** The signed-in session; the views below the sign-in gate always have one. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error("useSession outside the signed-in part of the console");
  return value;
}
