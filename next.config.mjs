/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native binaries (LanceDB, libsql) and node-postgres (its optional native binding) must be loaded by Node at
  // run time, not bundled.
  serverExternalPackages: [
    "@lancedb/lancedb",
    "@libsql/client",
    "libsql",
    "@prisma/adapter-libsql",
    "@prisma/adapter-pg",
    "pg",
    "apache-arrow",
  ],
  // Parallel e2e servers (one per port) each build into their own folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  typescript: { ignoreBuildErrors: true }, // `npm test` runs tsc --noEmit; the build need not do it twice
};

export default nextConfig;
