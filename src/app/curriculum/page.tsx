import { Suspense } from "react";
import { CurriculumPage } from "@/features/curriculum/components/CurriculumPage";
import { NotFound } from "@/features/shared/components/NotFound";
import { prefetchHeatmap } from "@/server/curriculum/prefetch";

export const dynamic = "force-dynamic";

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const { run } = await searchParams;
  const asked = typeof run === "string" && run !== "";
  const initialHeatmap = asked ? await prefetchHeatmap(run) : null;
  // An unknown run says so at once, rather than a heatmap that waits for it.
  if (asked && !initialHeatmap)
    return (
      <NotFound
        title="Run not found"
        detail={`No run has the id "${run}": the link may be mistyped, or the run was deleted.`}
        back={{ href: "/curriculum", label: "Curriculum of the latest run" }}
      />
    );
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
