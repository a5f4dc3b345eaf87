import { createAuthClient } from "better-auth/react";

/** Better Auth's browser client (same origin as the app): password and OIDC sign-in, sign-out. */
export const authClient = createAuthClient();
