/**
 * What a stop signal (SIGINT, SIGTERM) means to the worker. One signal, or a few in quick succession, is one
 * request to stop: the current job goes back to the queue (the queue's `release`) and the process exits 0. A
 * terminal's Ctrl-C or a service manager's SIGTERM reaches every process of the group at once, and each launcher
 * on the way forwards it again (npm to its shell, tsx to its child, `npm start` to its children), so the worker
 * sees two or three within milliseconds: those are the same request. Only a signal that comes later, on its own
 * (the operator asking again), forces the exit, leaving the job to be claimed again when its lease runs out.
 */

export const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Signals this soon after the first are the same request to stop. */
export const REPEAT_WINDOW_MS = 2_000;

export type SignalMeaning = "stop" | "repeat" | "force";

/** Tells each stop signal's meaning from when it comes: the first stops, repeats within the window do nothing. */
export class StopSignals {
  private first: number | undefined;

  constructor(
    private readonly windowMs = REPEAT_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  receive(): SignalMeaning {
    const at = this.now();
    if (this.first === undefined) {
      this.first = at;
      return "stop";
    }
    return at - this.first < this.windowMs ? "repeat" : "force";
  }
}

/** What the supervising process tells the worker over their IPC channel. */
export interface StopMessage {
  type: "dreamgym-worker-stop";
  signal: StopSignal;
}

export function isStopMessage(message: unknown): message is StopMessage {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { type?: unknown }).type === "dreamgym-worker-stop"
  );
}
