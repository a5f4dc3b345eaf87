"use client";

import { type CsvRun, metricsCsv } from "../metricsCsv";

/** Downloads the runs' per-iteration metrics as a CSV file, built in the browser from what the page shows. */
export function CsvDownload({ runs, fileName }: { runs: readonly CsvRun[]; fileName: string }) {
  const download = () => {
    const blob = new Blob([metricsCsv(runs)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The browser has taken the file once the click is handled; the URL is then only a leak.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <button type="button" onClick={download} disabled={runs.every((r) => r.metrics.length === 0)}>
      Download CSV
    </button>
  );
}
