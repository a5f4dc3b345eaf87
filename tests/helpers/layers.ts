/**
 * The packages each inner layer may use, read by the architecture test (which enforces them) and by the claims
 * test (which checks ARCHITECTURE.md names the same).
 */

/** The packages core may use: none of them a framework or a database. */
export const CORE_PACKAGES = ["zod", "openai", "fast-myers-diff", "minisearch", "p-limit", "lru-cache"];
export const SHARED_PACKAGES = ["zod"];
