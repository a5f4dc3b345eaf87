/**
 * Where a person starts (the home page, and sign-in without a page to go back to): an annotator's work is the
 * annotation queue; everyone else starts from the runs. A role string may name several roles (Better Auth keeps them
 * comma-separated): any role that works with runs wins.
 */
export function landingPage(role: string | null | undefined): string {
  const names = (role ?? "").split(",").map((r) => r.trim());
  if (names.includes("annotator") && !names.some((r) => r === "admin" || r === "researcher"))
    return "/annotations";
  return "/runs";
}
