import { NotFound } from "@/features/shared/components/NotFound";

export default function PageNotFound() {
  return (
    <NotFound
      title="Page not found"
      detail="There is no page at this address."
      back={{ href: "/trajectories", label: "Back to trajectories" }}
    />
  );
}
