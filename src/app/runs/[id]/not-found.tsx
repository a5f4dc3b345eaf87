import { NotFound } from "@/features/shared/components/NotFound";

export default function RunNotFound() {
  return <NotFound title="Run not found" back={{ href: "/runs", label: "Back to runs" }} />;
}
