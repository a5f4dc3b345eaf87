"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * There is no login: the name a reviewer gives is kept in this browser and sent with what they do, reviews in the
 * annotation queue and flags on synthetic steps alike (one name for both, under the key the queue always used).
 */
const KEY = "dreamgym.annotator";
const CHANGED = "dreamgym:annotator-changed";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

const read = () => window.localStorage.getItem(KEY)?.trim() ?? "";

/** The reviewer's name ("" when not given yet), undefined until the browser's storage could be read. */
export function useReviewerName(): [string | undefined, (name: string) => void] {
  const name = useSyncExternalStore<string | undefined>(subscribe, read, () => undefined);
  const setName = useCallback((next: string) => {
    const trimmed = next.trim();
    if (trimmed) window.localStorage.setItem(KEY, trimmed);
    else window.localStorage.removeItem(KEY);
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  return [name, setName];
}
