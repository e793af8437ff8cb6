import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the test run's PostgreSQL server (src/testing/global-setup.ts). */
    postgresAdminUrl: string;
  }
}
