import { NotFound } from "@/features/shared/components/NotFound";

export default function EpisodeNotFound() {
  return (
    <NotFound title="Episode not found" back={{ href: "/trajectories", label: "Back to trajectories" }} />
  );
}
