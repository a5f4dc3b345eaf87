import { notFound } from "next/navigation";
import { RunDetail } from "@/features/runs/components/RunDetail";
import { runExists } from "@/server/pages/exists";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await runExists(id))) notFound();
  return <RunDetail key={id} id={id} />;
}
