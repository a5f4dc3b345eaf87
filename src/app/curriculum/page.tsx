import { Suspense } from "react";
import { CurriculumPage } from "@/features/curriculum/components/CurriculumPage";
import { prefetchHeatmap } from "@/server/curriculum/prefetch";

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const { run } = await searchParams;
  const initialHeatmap = typeof run === "string" && run !== "" ? await prefetchHeatmap(run) : null;
  return (
    <>
      <h1>Curriculum</h1>
      <p className="sub">
        Which tasks the curriculum values (reward variance within each group of rollouts) and the variations
        it wrote of them.
      </p>
      <Suspense>
        <CurriculumPage initialHeatmap={initialHeatmap} />
      </Suspense>
    </>
  );
}
