import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    include: ["src/**/*.test.ts", "worker/**/*.test.ts", "tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Sessions signed in tests need a secret; without one, the first would write one into ./data.
    env: { DREAMGYM_AUTH_SECRET: "vitest-only-auth-secret-0123456789abcdef" },
  },
});
