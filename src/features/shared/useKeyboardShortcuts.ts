"use client";

import { useEffect, useRef } from "react";

/** One shortcut: the keys (KeyboardEvent.key values) that trigger it, and a description for the cheatsheet. */
export interface Shortcut {
  keys: string[];
  description: string;
  run: (event: KeyboardEvent) => void;
}

/** True while the user types into a field: shortcuts must not steal their keystrokes. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/** Binds shortcuts for the lifetime of a component. */
export function useKeyboardShortcuts(shortcuts: Shortcut[], enabled = true): void {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const shortcut = latest.current.find((s) => s.keys.includes(event.key));
      if (shortcut) {
        event.preventDefault();
        shortcut.run(event);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}
