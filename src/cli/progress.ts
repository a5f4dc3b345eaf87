import cliProgress from "cli-progress";

/** A progress bar on stderr, so stdout stays one JSON line for scripts. Silent when stderr is not a terminal. */
export function progressBar(label: string, total: number) {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted}`,
      stream: process.stderr,
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 5_000,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (value: number) => bar.update(value),
    setTotal: (total: number) => bar.setTotal(total),
    stop: () => bar.stop(),
  };
}
