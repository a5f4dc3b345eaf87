"use client";

import { useEffect, useState } from "react";
import { useMe } from "@/features/auth/lib/useMe";
import { flagUnavailableReason } from "@/features/flags/lib/flaggable";

/**
 * Flagging the step on screen (f, or the button): the note's editor, or, on a step that cannot be flagged (not a
 * prediction, or a role that may not flag), why not. The key is never silently ignored.
 */
export function useStepFlag(current: number, source: string | undefined, hasSteps: boolean) {
  const me = useMe();
  const [editing, setEditing] = useState(false);
  const [refused, setRefused] = useState(false);

  // A half-written note belongs to the step it was started on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every step change
  useEffect(() => {
    setEditing(false);
    setRefused(false);
  }, [current]);

  const unavailable =
    source === undefined
      ? null
      : me && !me.permissions.includes("step:flag")
        ? `Your role (${me.role}) may not flag steps; researchers flag hallucinated transitions.`
        : flagUnavailableReason(source);
  const open = () => {
    if (!hasSteps) return;
    if (unavailable) setRefused(true);
    else setEditing(true);
  };
  const close = () => {
    setEditing(false);
    setRefused(false);
  };
  return { editing, setEditing, refused, setRefused, unavailable, open, close };
}
