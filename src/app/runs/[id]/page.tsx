import { RunDetail } from "@/features/runs/components/RunDetail";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunDetail key={id} id={id} />;
}
