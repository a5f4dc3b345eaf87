import { spawn } from "node:child_process";
import os from "node:os";
import { REPEAT_WINDOW_MS, STOP_SIGNALS, type StopMessage, StopSignals } from "./stopSignals";

/**
 * The worker runs as two processes: a supervisor (the process `npm run worker`, `npm start` or a service manager
 * starts) and, as its child in the same process group, the worker that claims and runs jobs. The supervisor only
 * waits, so it answers signals at once, which the worker cannot: its main thread runs a job's computation and
 * handles a signal between units of work, seconds later. That matters because tsx, which `npm run worker` runs the
 * worker under, forwards a signal to its child and kills it (SIGKILL) when the child has not acknowledged it within
 * 60 ms: a busy worker died that way, its job left `running` until the lease ran out, counted as a crash. So the
 * supervisor decides what the signals mean (stopSignals.ts) and tells the worker over IPC; the worker also stops on
 * a signal it receives itself (every process of the group receives a terminal's), or when its supervisor is gone.
 */

/** Set in the worker's environment to the supervisor's pid: the worker's id names that process. */
export const SUPERVISOR_PID_VAR = "DREAMGYM_WORKER_SUPERVISOR_PID";

/** The pid of the supervising process, when this process is the supervised worker. */
export function supervisorPid(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = Number(env[SUPERVISOR_PID_VAR]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * Starts `entry` (worker/main.ts again) as the worker under the same Node options, passes stop signals on, and exits
 * with the worker's exit code: 0 after a stop, 1 when a later signal forced the exit (the worker is killed then).
 */
export function superviseWorker(entry: string, log: (line: string) => void): void {
  const worker = spawn(process.execPath, [...process.execArgv, entry, ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, [SUPERVISOR_PID_VAR]: String(process.pid) },
  });
  const signals = new StopSignals();
  let forced = false;
  for (const signal of STOP_SIGNALS)
    process.on(signal, () => {
      const meaning = signals.receive();
      if (meaning === "stop") {
        log(
          `worker: ${signal}: the current job goes back to the queue at its next check, then the worker stops (another signal ${REPEAT_WINDOW_MS / 1000} s or more from now forces the exit)`,
        );
        const message: StopMessage = { type: "dreamgym-worker-stop", signal };
        if (worker.connected) worker.send(message, () => {});
      } else if (meaning === "repeat") {
        log(`worker: ${signal} again within ${REPEAT_WINDOW_MS / 1000} s: the same request to stop`);
      } else if (!forced) {
        forced = true;
        log(`worker: ${signal} again: forcing the exit; its job is claimed again when the lease runs out`);
        worker.kill("SIGKILL");
      }
    });
  worker.on("error", (error) => {
    log(`worker: could not start the worker process: ${error.message}`);
    process.exit(1);
  });
  worker.on("exit", (code, signal) => {
    if (forced) process.exit(1);
    process.exit(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
  });
}
