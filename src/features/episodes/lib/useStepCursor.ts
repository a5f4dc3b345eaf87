"use client";

import { useEffect, useState } from "react";
import { stepIndexOf, stepParam } from "@/features/shared/lib/stepParam";

/**
 * The step on screen. It lives in component state so that fast key presses each build on the previous one; the
 * URL follows (shallowly) so that a step can be linked to. `initial` is the URL's step (counted from 1) when the view opens.
 */
export function useStepCursor(initial: string | null, count: number) {
  const last = Math.max(0, count - 1);
  const [requested, setRequested] = useState(() => stepIndexOf(initial));
  const current = Math.min(requested, last);

  useEffect(() => {
    if (count === 0) return;
    const url = new URL(window.location.href);
    url.searchParams.set("step", stepParam(current));
    window.history.replaceState(window.history.state, "", url);
  }, [current, count]);

  /** Moves to `to(current)`, kept within the episode. */
  const move = (to: (index: number) => number) =>
    setRequested((index) => Math.min(Math.max(0, to(Math.min(index, last))), last));
  return { current, last, move };
}
