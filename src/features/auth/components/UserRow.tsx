"use client";

import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { ROLES, type RoleName as Role } from "@/shared/roles";

export type User = inferRouterOutputs<AppRouter>["users"]["list"][number];

/** One person: their role (a change asks first), a password reset, and deactivation or reactivation. */
export function UserRow({
  user,
  onRole,
  onPassword,
  onDeactivate,
  onReactivate,
}: {
  user: User;
  onRole: (role: Role) => void;
  onPassword: (password: string) => void;
  onDeactivate: () => void;
  onReactivate: () => void;
}) {
  return (
    <tr data-testid="user-row" className={user.deactivated ? "inactive" : undefined}>
      <td>{user.name}</td>
      <td className="mono">{user.email}</td>
      <td>
        <select
          aria-label={`Role of ${user.email}`}
          value={user.role}
          onChange={(e) => onRole(e.target.value as Role)}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>
        {user.deactivated ? (
          <span className="badge bad" title={user.deactivatedReason ?? undefined}>
            deactivated
          </span>
        ) : (
          <span className="badge good">active</span>
        )}
      </td>
      <td className="hint">{user.createdAt.toLocaleString()}</td>
      <td>
        <div className="row" style={{ gap: 6, flexWrap: "nowrap" }}>
          <button
            type="button"
            onClick={() => {
              const password = window.prompt(`New password for ${user.email} (at least 8 characters)`);
              if (password) onPassword(password);
            }}
          >
            Set password
          </button>
          {user.deactivated ? (
            <button type="button" onClick={onReactivate} aria-label={`Reactivate ${user.email}`}>
              Reactivate
            </button>
          ) : (
            <button type="button" onClick={onDeactivate} aria-label={`Deactivate ${user.email}`}>
              Deactivate
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}
