import { DEFAULT_ROLE } from "./access";
import { type Auth, getAuth } from "./auth";

/** Who is asking: the signed-in person behind a request's cookie or bearer token. */
export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  role: string;
}

/**
 * The signed-in user of a request, or null (no cookie or token, expired, or banned). `auth`: the app's own unless
 * given (the environment server checks against the database it was started with).
 */
export async function signedInUser(headers: Headers, auth?: Auth): Promise<SignedInUser | null> {
  const session = await (auth ?? (await getAuth())).api.getSession({ headers });
  // Deactivating ends every session; this also refuses one that outlived it (made by another process meanwhile).
  if (!session || session.user.banned) return null;
  const { id, name, email, role } = session.user;
  return { id, name, email, role: role ?? DEFAULT_ROLE };
}
