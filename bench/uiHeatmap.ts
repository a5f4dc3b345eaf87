/** Placeholder while the page benchmark is written. */
export async function uiHeatmapBench(_args: string[]): Promise<void> {
  throw new Error("uiHeatmap benchmark not written yet");
}
