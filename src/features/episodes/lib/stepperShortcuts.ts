import type { CheatsheetEntry } from "@/features/shared/components/ShortcutCheatsheet";

/** The step view's keys as the cheatsheet (?) lists them; EpisodeStepper binds them. */
export const STEPPER_CHEATSHEET: CheatsheetEntry[] = [
  { keys: ["→", "j", "l"], description: "next step" },
  { keys: ["←", "k", "h"], description: "previous step" },
  { keys: ["Home", "End"], description: "first / last step" },
  { keys: ["n", "Shift+→"], description: "next episode in the list" },
  { keys: ["p", "Shift+←"], description: "previous episode in the list" },
  { keys: ["f"], description: "flag the step as hallucinated (or edit its note); synthetic steps only" },
  { keys: ["?"], description: "show or hide this cheatsheet" },
  { keys: ["Esc"], description: "close" },
];
