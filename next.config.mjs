import { fileURLToPath } from "node:url";
import path from "node:path";
import createNextIntlPlugin from "next-intl/plugin";

const root = path.dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its wasm and extension bundles from its own package folder, and pino uses
  // worker threads: both must stay plain Node modules instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "swagger-ui-dist", "rate-limiter-flexible"],
  turbopack: { root },
  poweredByHeader: false,
};

// next-intl: messages and formats of the rendered sites (i18n/request.ts). Routing by host and
// locale prefix is ours (proxy.ts), so next-intl's middleware is not used.
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
