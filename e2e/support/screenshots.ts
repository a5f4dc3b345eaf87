import path from "node:path";

/**
 * Where a journey saves its screenshot of a screen: test-results/screenshots (untracked) when the tests run, so
 * `npm test` changes no tracked file; docs/screenshots, the README's pictures, only under `npm run screenshots`.
 */
export function screenshotPath(name: string): string {
  const folder =
    process.env.DREAMGYM_SCREENSHOTS === "docs" ? "docs/screenshots" : "test-results/screenshots";
  return path.join(folder, name);
}
