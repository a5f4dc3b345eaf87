import { Suspense } from "react";
import { GamedEpisodes } from "@/features/gamed/components/GamedEpisodes";

export default function GamedPage() {
  return (
    <Suspense>
      <GamedEpisodes />
    </Suspense>
  );
}
