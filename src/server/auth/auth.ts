import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { admin, bearer, genericOAuth } from "better-auth/plugins";
import { type Config, config } from "@/env";
import { cleanName } from "@/shared/names";
import { type Db, getDb } from "../db";
import { dialectOf } from "../sql/dialect";
import { ac, DEFAULT_ROLE, roles } from "./access";
import { appOrigins, publicUrl } from "./origins";
import { signInThrottle } from "./throttlePlugin";

/** What signing in costs and lasts: a week, renewed daily while used (Better Auth's defaults, named). */
const SESSION_SECONDS = 7 * 24 * 3600;
const SESSION_RENEW_SECONDS = 24 * 3600;
export const MIN_PASSWORD = 8;

/**
 * The secret that signs session cookies. A team deployment sets DREAMGYM_AUTH_SECRET on every machine; a single
 * machine gets one made at first start and kept beside the database, so that restarts keep everyone signed in.
 */
export function authSecret(settings: Config = config()): string {
  if (settings.auth.secret) return settings.auth.secret;
  const file = path.resolve(/*turbopackIgnore: true*/ settings.dataDir, "auth-secret");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}

export function createAuth(db: Db, settings: Config = config()) {
  const oidc = settings.auth.oidc;
  return betterAuth({
    appName: "DreamGym",
    baseURL: publicUrl(settings),
    secret: authSecret(settings),
    trustedOrigins: appOrigins(settings),
    database: prismaAdapter(db, { provider: dialectOf(db) }),
    // Admins add people; nobody signs themselves up with a password.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_RENEW_SECONDS },
    // A person's name is cleaned however it arrives: the Users page, Better Auth's own endpoints, an OIDC profile.
    databaseHooks: {
      user: {
        create: { before: async (user) => ({ data: { ...user, name: cleanName(user.name) } }) },
        update: {
          before: async (user) =>
            typeof user.name === "string" ? { data: { ...user, name: cleanName(user.name) } } : undefined,
        },
      },
    },
    // Password sign-in is limited by signInThrottle below, in the database, per account and per client address.
    // Better Auth's own limiter counts in memory, per process, and its sign-in rule (3 tries per 10 s per address)
    // would refuse a team behind one proxy.
    rateLimit: { customRules: { "/sign-in/email": false } },
    plugins: [
      // Roles and user management; people who arrive through OIDC see everything and change nothing until an
      // admin gives them a role.
      // A deactivated person (banned, in Better Auth's words: users.ts deactivateUser) is refused at sign-in.
      admin({
        ac,
        roles,
        defaultRole: DEFAULT_ROLE,
        adminRoles: ["admin"],
        bannedUserMessage: "This account is deactivated; ask an admin to reactivate it.",
      }),
      // Failed password sign-ins counted per account and per client address (signInThrottle.ts).
      signInThrottle(db),
      // Trainers and scripts send the session token as `Authorization: Bearer …` (the environment server, curl).
      bearer(),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "oidc",
                  discoveryUrl: oidc.discoveryUrl,
                  clientId: oidc.clientId,
                  ...(oidc.clientSecret ? { clientSecret: oidc.clientSecret } : {}),
                  scopes: oidc.scopes,
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Db, Auth>();

/** One Better Auth instance per database client (the process has one; tests open one per test). */
export function authFor(db: Db): Auth {
  let auth = instances.get(db);
  if (!auth) {
    auth = createAuth(db);
    instances.set(db, auth);
  }
  return auth;
}

/** Better Auth over the process's one database client. */
export async function getAuth(): Promise<Auth> {
  return authFor(await getDb());
}
