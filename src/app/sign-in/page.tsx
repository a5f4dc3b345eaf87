import { Suspense } from "react";
import { config } from "@/env";
import { SignInForm } from "@/features/auth/components/SignInForm";

export const dynamic = "force-dynamic";

export default function Page() {
  const oidc = config().auth.oidc;
  return (
    <Suspense>
      <SignInForm oidcName={oidc ? oidc.name : null} />
    </Suspense>
  );
}
