import path from "node:path";

/** The project's own sample of web-navigation trajectories (a domain with no real environment here). */
export const SAMPLE_FILE = path.resolve(import.meta.dirname, "../../../samples/web-navigation.jsonl");

/**
 * The larger web sample: 300 sessions on a small shop-admin site, generated from a seed by
 * scripts/samples/webAdmin.ts (`npm run sample:web`), domain "web-admin".
 */
export const WEB_ADMIN_SAMPLE_FILE = path.resolve(import.meta.dirname, "../../../samples/web-admin.jsonl");
