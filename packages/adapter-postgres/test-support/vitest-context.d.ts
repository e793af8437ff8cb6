import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the test run's PostgreSQL server (test-support/global-setup.ts); "" when none. */
    postgresAdminUrl: string;
    /** Why no PostgreSQL server could be started ("" when one was). */
    postgresUnavailable: string;
  }
}
