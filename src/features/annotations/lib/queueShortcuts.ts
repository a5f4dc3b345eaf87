import type { CheatsheetEntry } from "@/features/shared/components/ShortcutCheatsheet";

/** The queue's keys as the cheatsheet (?) lists them; AnnotationQueue binds them. */
export const QUEUE_CHEATSHEET: CheatsheetEntry[] = [
  { keys: ["j", "↓"], description: "next trace" },
  { keys: ["k", "↑"], description: "previous trace" },
  { keys: ["a"], description: "accept the teacher's trace as it is" },
  { keys: ["e"], description: "edit: correct the reasoning, next state, reward or end (autosaved)" },
  { keys: ["Ctrl+Enter", "⌘+Enter"], description: "save the correction (in the editor)" },
  { keys: ["Esc"], description: "cancel the edit, or close this" },
  { keys: ["r"], description: "reject the trace (left out of the SFT set)" },
  { keys: ["u"], description: "undo your last accept, edit or reject (again for the one before)" },
  { keys: ["s"], description: "select or unselect the trace for a bulk action" },
  { keys: ["Shift+A", "Shift+R"], description: "accept / reject every selected trace" },
  { keys: ["1", "2", "3", "4", "5"], description: "pending / accepted / edited / rejected / all" },
  { keys: ["x"], description: "export the reviewed SFT set under these filters (JSONL)" },
  { keys: ["?"], description: "show or hide this cheatsheet" },
];
