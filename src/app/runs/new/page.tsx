import Link from "next/link";
import { Allowed } from "@/features/auth/components/Allowed";
import { LaunchForm } from "@/features/runs/components/LaunchForm";

export default function Page() {
  return (
    <>
      <h1>New run</h1>
      <p className="sub">
        Start from a preset, change any setting, launch. <Link href="/runs">Back to runs</Link>
      </p>
      <Allowed permission="run:launch" explain="launch runs">
        <LaunchForm />
      </Allowed>
    </>
  );
}
