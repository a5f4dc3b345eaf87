/**
 * What a model must know to write valid office goals for the seed's world: the goal's shape, the four kinds of
 * change, and the world's records a change may name (its tickets, events and files, with what describes them).
 * These are the office validator's rules, written out.
 */
import { generateWorld, type OfficeGoal } from "../envs/office";
import type { DomainPromptContext } from "./openaiPrompt";

const GOAL_FORMAT = [
  "An office goal is a JSON object:",
  '{"world": integer, "changes": [change, ...]} with one or two changes, each one of',
  '  {"kind": "close_ticket", "ticket": id}   close an open ticket',
  '  {"kind": "cancel_event", "event": id}    cancel a calendar event',
  '  {"kind": "delete_file", "path": path}    delete a file (not a follow-up note)',
  '  {"kind": "close_noted", "note": path}    close the ticket a follow-up note marks as done',
  "The world is rebuilt from its seed; the instruction the agent reads describes each record by what a lookup",
  'shows (requester and tag, title and day, name, author and folder), e.g. "Close the open billing ticket from',
  'Dana Okafor, and cancel the design sync on Tuesday."',
].join("\n");

export function officePromptContext(goal: OfficeGoal): DomainPromptContext {
  const world = generateWorld(goal.world);
  const constraints = [
    `- world: keep ${goal.world} to use the records below, or any other even integer below 4294967295 for another`,
    "  world (odd seeds are reserved); in another world, only records of that world are valid.",
    "- A ticket to close must be open, and the only open ticket of its requester with its tag.",
    "- An event to cancel must be the only one with its title on its day.",
    "- A file to delete must be the only one with its name, author and folder.",
    "- Two changes must be of different records. Every goal must differ from the seed goal and from the others.",
    "",
    "## Tickets (id | status | tag | requester)",
    ...world.tickets.map((t) => `${t.id} | ${t.status} | ${t.tag} | ${t.requester}`),
    "## Events (id | day hour | title)",
    ...world.events.map((e) => `${e.id} | ${e.day} ${e.hour}:00 | ${e.title}`),
    "## Files (path | name | author)",
    ...world.files.map((f) => `${f.path} | ${f.followups ? "follow-up notes" : f.name} | ${f.owner}`),
  ].join("\n");
  return { goalFormat: GOAL_FORMAT, constraints };
}
