import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { RoleName } from "@/shared/roles";

/**
 * What a signed-in person may change, by role. Reading needs only a sign-in: every role sees every run, trace and
 * figure. The same table decides on the server for tRPC, the route handlers, the exports and the environment
 * server, and Better Auth's admin plugin uses it for user management.
 */
/** What researchers change: the experiments and their data. */
const research = {
  run: ["launch", "cancel", "resume", "delete"],
  data: ["import", "collect", "index", "teacher", "delete"],
  job: ["cancel"],
  step: ["flag", "export"],
  environment: ["train"],
} as const;

/** What annotators change: the teacher traces under review. */
const annotation = { annotation: ["review", "export"] } as const;
/** Who reviews what (researchers and admins assign the queue) and the guidelines annotators read (admins). */
const annotationLead = ["assign", "guide"] as const;

export const statements = {
  ...defaultStatements,
  ...research,
  annotation: [...annotation.annotation, ...annotationLead],
} as const;

export const ac = createAccessControl(statements);

const researcher = ac.newRole({ ...research, annotation: ["assign"] });
const annotator = ac.newRole(annotation);
const viewer = ac.newRole({});
const admin = ac.newRole({ ...adminAc.statements, ...research, annotation: statements.annotation });

export const roles = { admin, researcher, annotator, viewer };

export { ROLES, type RoleName } from "@/shared/roles";

/** The role of a person whose row names none (new OIDC sign-ins, rows from before roles): reads only. */
export const DEFAULT_ROLE = "viewer" satisfies RoleName;

type Statements = typeof statements;
/** One thing to be allowed: a resource and the actions on it, e.g. `{ run: ["launch"] }`. */
export type Permission = { [K in keyof Statements]?: Statements[K][number][] };

/** A role string as stored (Better Auth keeps roles as text, comma-separated when several): unknown roles allow nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  for (const name of (role ?? "").split(",")) {
    const parsed = RoleName.safeParse(name.trim());
    if (!parsed.success) continue;
    if (roles[parsed.data].authorize(permission).success) return true;
  }
  return false;
}

/** What a refused request says: who is refused what, so the message tells the user which role they need. */
export function describePermission(permission: Permission): string {
  return Object.entries(permission)
    .map(([resource, actions]) => `${(actions ?? []).join("/")} ${resource}`)
    .join(", ");
}
