export { MigrationError, type MigrationReport, type PendingMigration, pendingMigrations } from "./pending.js";
