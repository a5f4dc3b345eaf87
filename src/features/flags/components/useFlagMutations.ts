"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

export interface FlagState {
  id: string;
  flagged: boolean;
  flagNote: string | null;
  flagCategory: string | null;
  flagAuthor: string | null;
  flaggedAt: Date | null;
}

/**
 * Flag and unflag a step of an episode. The episode already in the cache is patched in place rather than
 * refetched (a long episode is hundreds of steps); lists and figures that count flags are refreshed.
 */
export function useFlagMutations(trajectoryId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const patch = (changed: FlagState) => {
    queryClient.setQueryData(trpc.trajectories.get.queryKey({ id: trajectoryId }), (episode) =>
      episode
        ? {
            ...episode,
            steps: episode.steps.map((s) =>
              s.id === changed.id
                ? {
                    ...s,
                    flagged: changed.flagged,
                    flagNote: changed.flagNote,
                    flagCategory: changed.flagCategory,
                    flagAuthor: changed.flagAuthor,
                    flaggedAt: changed.flaggedAt,
                  }
                : s,
            ),
          }
        : episode,
    );
    void queryClient.invalidateQueries({ queryKey: trpc.steps.flagged.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.steps.fidelity.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.trajectories.list.pathKey() });
  };
  const flag = useMutation(trpc.steps.flag.mutationOptions({ onSuccess: patch }));
  const unflag = useMutation(trpc.steps.unflag.mutationOptions({ onSuccess: patch }));
  return { flag, unflag };
}
