import { Suspense } from "react";
import { EpisodeStepper } from "@/features/episodes/components/EpisodeStepper";

export default async function EpisodePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <EpisodeStepper id={id} />
    </Suspense>
  );
}
