import { notFound } from "next/navigation";
import { Suspense } from "react";
import { GamedEpisodes } from "@/features/gamed/components/GamedEpisodes";
import { runExists } from "@/server/pages/exists";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await runExists(id))) notFound();
  return (
    <Suspense>
      <GamedEpisodes key={id} runId={id} />
    </Suspense>
  );
}
