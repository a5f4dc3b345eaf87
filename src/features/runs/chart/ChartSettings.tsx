"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { smoothingOf } from "./smoothing";
import { type XMode, xModeOf } from "./xAxis";
import type { XRange } from "./zoom";

/** What every chart of a page shares, as in W&B's workspace: the x axis, smoothing and the zoomed range. */
export interface ChartSettings {
  xMode: XMode;
  smoothing: number;
  zoom: XRange;
  setXMode: (mode: XMode) => void;
  setSmoothing: (weight: number) => void;
  setZoom: (range: XRange) => void;
}

const Settings = createContext<ChartSettings | null>(null);

/**
 * Keeps the x axis and smoothing in the URL (?x=time&smooth=0.6), so a shared link shows the same charts; the
 * zoom lasts while the page does, and a new x axis resets it (its range was in the old axis's unit).
 */
export function ChartSettingsProvider({ children }: { children: ReactNode }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [zoom, setZoom] = useState<XRange>(null);
  // Read from the URL once, then held here: a slider moved key by key must not wait for each navigation.
  const [xMode, setX] = useState<XMode>(() => xModeOf(params.get("x")));
  const [smoothing, setSmooth] = useState(() => smoothingOf(params.get("smooth")));
  const setParam = useCallback(
    (name: string, value: string | null) => {
      // The address as it is now, not as it was at the last render: two quick changes both stay.
      const next = new URLSearchParams(window.location.search);
      if (value === null) next.delete(name);
      else next.set(name, value);
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [pathname, router],
  );
  const value = useMemo<ChartSettings>(
    () => ({
      xMode,
      smoothing,
      zoom,
      setXMode: (mode) => {
        setZoom(null);
        setX(mode);
        setParam("x", mode === "iteration" ? null : mode);
      },
      setSmoothing: (weight) => {
        setSmooth(weight);
        setParam("smooth", weight > 0 ? String(weight) : null);
      },
      setZoom,
    }),
    [xMode, smoothing, zoom, setParam],
  );
  return <Settings.Provider value={value}>{children}</Settings.Provider>;
}

/** The page's chart settings; outside a provider (a chart on its own), the plain defaults. */
export function useChartSettings(): ChartSettings {
  return (
    useContext(Settings) ?? {
      xMode: "iteration",
      smoothing: 0,
      zoom: null,
      setXMode: () => {},
      setSmoothing: () => {},
      setZoom: () => {},
    }
  );
}
