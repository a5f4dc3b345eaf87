import { notFound } from "next/navigation";
import { Suspense } from "react";
import { EpisodeStepper } from "@/features/episodes/components/EpisodeStepper";
import { trajectoryExists } from "@/server/pages/exists";

export default async function EpisodePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await trajectoryExists(id))) notFound();
  return (
    <Suspense>
      {/* A new episode starts at its own step, not at the step the previous one was left on. */}
      <EpisodeStepper key={id} id={id} />
    </Suspense>
  );
}
