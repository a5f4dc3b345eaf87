import { can, describePermission, type Permission } from "./access";
import { crossSiteResponse } from "./sameOrigin";
import { type SignedInUser, signedInUser } from "./session";

/**
 * For route handlers (downloads, uploads): the signed-in person if their role allows `permission`, else the
 * response that says why not (403 for a page elsewhere using the session cookie, 401 to sign in, 403 naming the
 * role).
 */
export async function permitted(request: Request, permission: Permission): Promise<SignedInUser | Response> {
  const crossSite = crossSiteResponse(request);
  if (crossSite) return crossSite;
  const user = await signedInUser(request.headers);
  if (!user)
    return new Response("Sign in to use DreamGym (a session cookie or `Authorization: Bearer <token>`)\n", {
      status: 401,
    });
  if (!can(user.role, permission))
    return new Response(`Your role (${user.role}) may not ${describePermission(permission)}\n`, {
      status: 403,
    });
  return user;
}
