import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its wasm and extension bundles from its own package folder, and pino uses
  // worker threads: both must stay plain Node modules instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "swagger-ui-dist"],
  turbopack: { root },
  poweredByHeader: false,
};

export default nextConfig;
