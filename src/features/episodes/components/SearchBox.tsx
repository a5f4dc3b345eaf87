"use client";

import { useEffect, useRef, useState } from "react";

/** The search applies this long after the last key press: every word typed would otherwise be a query. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The instruction search, applied as the user types (debounced) and kept in the URL like every other filter;
 * Enter applies it at once. A search set from elsewhere (a link, back) replaces what the box shows.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const applied = useRef(value);
  // The timer outlives renders; it must call the latest setter, which knows the other filters as they are now.
  const search = useRef(onSearch);
  search.current = onSearch;

  useEffect(() => {
    if (value === applied.current) return;
    applied.current = value;
    setText(value);
  }, [value]);

  const apply = (q: string) => {
    if (q === applied.current) return;
    applied.current = q;
    search.current(q);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: apply reads refs only
  useEffect(() => {
    const q = text.trim();
    if (q === applied.current) return;
    const timer = setTimeout(() => apply(q), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <label className="field grow">
      Instruction contains
      <input
        type="text"
        aria-label="Search instructions"
        value={text}
        placeholder="e.g. shampoo (filters as you type)"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") apply(e.currentTarget.value.trim());
        }}
      />
    </label>
  );
}
