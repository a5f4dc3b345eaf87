import { JobsPage } from "@/features/jobs/components/JobsPage";

export default function Page() {
  return (
    <>
      <h1>Jobs &amp; imports</h1>
      <p className="sub">
        Everything slow runs in the worker: imports, data collection, training. Status updates live.
      </p>
      <JobsPage />
    </>
  );
}
