import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { landingPage } from "@/features/auth/lib/landing";
import { signedInUser } from "@/server/auth/session";

export const dynamic = "force-dynamic";

/** Home: each role's own starting page (annotators their queue). */
export default async function Home() {
  const user = await signedInUser(await headers());
  redirect(user ? landingPage(user.role) : "/sign-in");
}
