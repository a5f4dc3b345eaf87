/** Placeholder while the page benchmark is written. */
export async function uiStepperBench(_args: string[]): Promise<void> {
  throw new Error("uiStepper benchmark not written yet");
}
