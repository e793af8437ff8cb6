import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The console is served by berthd at /ui/ (same origin as the API, so no
 * CORS and no separate web server). `pnpm dev` serves it from Vite with
 * the API proxied to a running berthd (BERTH_URL, default the loopback
 * listener berthd opens by itself).
 */
export default defineConfig({
  base: "/ui/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No source maps in what berthd ships: the bundle stays small, and the sources are in the repository.
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    proxy: {
      "/1.0": { target: process.env.BERTH_URL ?? "http://127.0.0.1:8443", changeOrigin: false },
    },
  },
});
