import { z } from "zod";

/** Who may change what (src/server/auth/access.ts has the table); everyone signed in reads everything. */
export const ROLES = ["admin", "researcher", "annotator", "viewer"] as const;
export const RoleName = z.enum(ROLES);
export type RoleName = z.infer<typeof RoleName>;

/** What each role is for, as the Users page explains it. */
export const ROLE_HINTS: Record<RoleName, string> = {
  admin: "people and settings, and everything else",
  researcher: "runs, flags, imports, deletes, the environment server",
  annotator: "the annotation queue and its export",
  viewer: "reads everything, changes nothing",
};
