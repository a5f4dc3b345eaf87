import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";

/** One admin action as the audit log keeps it: who (a user id) did what, to what, with what detail. */
export interface AdminAction {
  actor: string;
  /** Dotted, resource first: user.role, user.deactivate, user.reactivate, user.create, guidelines.edit. */
  action: string;
  /** What it was done to: a user id, a run id. */
  target?: string;
  detail?: Prisma.InputJsonValue;
}

/** An audit row as the Users page shows it, with the actor's and a user target's email where known. */
export interface AdminLogRow {
  id: string;
  createdAt: Date;
  actor: string;
  actorEmail: string | null;
  action: string;
  target: string | null;
  targetEmail: string | null;
  detail: unknown;
}

/**
 * Records an admin action. Every change an admin makes to people or settings goes through here, so the log is one
 * place to ask "who changed this, and when".
 */
export async function logAdminAction(db: Db, action: AdminAction): Promise<void> {
  await db.auditLog.create({
    data: {
      actor: action.actor,
      action: action.action,
      target: action.target ?? null,
      ...(action.detail === undefined ? {} : { detail: action.detail }),
    },
  });
}

/** The newest admin actions first, with emails for the ids that are users. */
export async function listAdminActions(db: Db, limit = 200): Promise<AdminLogRow[]> {
  const rows = await db.auditLog.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  const ids = [...new Set(rows.flatMap((r) => [r.actor, r.target ?? ""]).filter(Boolean))];
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } });
  const email = new Map(users.map((u) => [u.id, u.email]));
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    actor: r.actor,
    actorEmail: email.get(r.actor) ?? null,
    action: r.action,
    target: r.target,
    targetEmail: r.target ? (email.get(r.target) ?? null) : null,
    detail: r.detail,
  }));
}
