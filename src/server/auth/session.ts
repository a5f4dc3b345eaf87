import { getAuth } from "./auth";

/** Who is asking: the signed-in person behind a request's cookie or bearer token. */
export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** The signed-in user of a request, or null (no cookie or token, expired, or banned). */
export async function signedInUser(headers: Headers): Promise<SignedInUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, name, email, role } = session.user;
  return { id, name, email, role: role ?? "viewer" };
}
