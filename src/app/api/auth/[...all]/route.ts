import { toNextJsHandler } from "better-auth/next-js";
import { getAuth } from "@/server/auth/auth";

export const dynamic = "force-dynamic";

/** Better Auth's endpoints: sign-in, sign-out, session, OIDC callbacks. */
const handler = async (request: Request) => {
  const auth = await getAuth();
  const { GET, POST } = toNextJsHandler(auth);
  return request.method === "GET" ? GET(request) : POST(request);
};

export { handler as GET, handler as POST };
