import { defineConfig } from "drizzle-kit";

// `pnpm db:generate` turns schema changes into a new SQL migration under
// drizzle/ (with drizzle-kit's journal); commit both. Never edit a released one.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema/index.ts",
  out: "./drizzle",
});
