// Writes a gzip copy beside every compressible file of the build, so berthd
// serves the console precompressed (its static handler picks `x.js.gz` for
// clients that accept gzip) without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist", import.meta.url).pathname;
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;

function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    else if (COMPRESSIBLE.test(entry)) {
      const raw = readFileSync(path);
      const packed = gzipSync(raw, { level: 9 });
      // Tiny files gain nothing.
      if (packed.length < raw.length * 0.9) writeFileSync(`${path}.gz`, packed);
    }
  }
}

walk(dist);
