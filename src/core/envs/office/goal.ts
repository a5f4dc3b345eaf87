/**
 * What an office task asks for: one or two changes to its world (close a ticket, cancel a meeting, delete a
 * file, or close the ticket someone's follow-up notes mark as done). A change is described by what the agent can
 * look up (requester and tag, title and day, name, author and folder), never by its id, so the agent has to find
 * the record before it can act on it. The goal is checked against the world it names: the description must pick
 * out exactly one record, and the change must be one that still needs making.
 */
import { z } from "zod";
import { fullName, generateWorld, type OfficeFile, type World } from "./world";

export const OfficeChange = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("close_ticket"), ticket: z.number().int() }),
  z.object({ kind: z.literal("cancel_event"), event: z.number().int() }),
  z.object({ kind: z.literal("delete_file"), path: z.string().min(1) }),
  z.object({ kind: z.literal("close_noted"), note: z.string().min(1) }),
]);
export type OfficeChange = z.infer<typeof OfficeChange>;

export const OfficeGoal = z.object({
  /** The world's seed: even for train tasks, odd for test tasks. */
  world: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1),
  changes: z.array(OfficeChange).min(1).max(2),
});
export type OfficeGoal = z.infer<typeof OfficeGoal>;

export class OfficeGoalError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid office goal: ${problems.join("; ")}`);
  }
}

export type GoalCheck = { ok: true; goal: OfficeGoal; world: World } | { ok: false; problems: string[] };

function noteTicket(note: OfficeFile): number | undefined {
  return note.followups?.find((line) => line.done)?.ticket;
}

/** The write call that makes a change, as the environment records it ("close_ticket(417)"). */
export function changeCall(world: World, change: OfficeChange): string | undefined {
  switch (change.kind) {
    case "close_ticket":
      return `close_ticket(${change.ticket})`;
    case "cancel_event":
      return `cancel_event(${change.event})`;
    case "delete_file":
      return `delete_file("${change.path}")`;
    case "close_noted": {
      const note = world.files.find((f) => f.path === change.note);
      const ticket = note ? noteTicket(note) : undefined;
      return ticket === undefined ? undefined : `close_ticket(${ticket})`;
    }
  }
}

function changeProblems(world: World, change: OfficeChange, at: string): string[] {
  switch (change.kind) {
    case "close_ticket": {
      const ticket = world.tickets.find((t) => t.id === change.ticket);
      if (!ticket) return [`${at}.ticket: no ticket ${change.ticket} in world ${world.seed}`];
      if (ticket.status !== "open")
        return [`${at}.ticket: ticket ${ticket.id} is ${ticket.status}, not open`];
      const alike = world.tickets.filter(
        (t) => t.status === "open" && t.requester === ticket.requester && t.tag === ticket.tag,
      );
      return alike.length > 1
        ? [
            `${at}.ticket: ${ticket.requester} has ${alike.length} open ${ticket.tag} tickets; the task must name one`,
          ]
        : [];
    }
    case "cancel_event": {
      const event = world.events.find((e) => e.id === change.event);
      if (!event) return [`${at}.event: no event ${change.event} in world ${world.seed}`];
      const alike = world.events.filter((e) => e.title === event.title && e.day === event.day);
      return alike.length > 1 ? [`${at}.event: ${alike.length} ${event.title} events on ${event.day}`] : [];
    }
    case "delete_file": {
      const file = world.files.find((f) => f.path === change.path);
      if (!file) return [`${at}.path: no file ${change.path} in world ${world.seed}`];
      if (file.followups) return [`${at}.path: ${file.path} is a follow-up note, which tasks never delete`];
      const alike = world.files.filter(
        (f) => f.folder === file.folder && f.name === file.name && f.owner === file.owner,
      );
      return alike.length > 1
        ? [`${at}.path: ${file.owner} has ${alike.length} ${file.name} files there`]
        : [];
    }
    case "close_noted": {
      const note = world.files.find((f) => f.path === change.note);
      if (!note?.followups) return [`${at}.note: no follow-up note ${change.note} in world ${world.seed}`];
      const id = noteTicket(note);
      const ticket = world.tickets.find((t) => t.id === id);
      return ticket?.status === "open"
        ? []
        : [`${at}.note: the ticket ${change.note} marks done is not open`];
    }
  }
}

export function checkOfficeGoal(input: unknown): GoalCheck {
  const parsed = OfficeGoal.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${i.path.join(".") || "goal"}: ${i.message}`),
    };
  const goal = parsed.data;
  const world = generateWorld(goal.world);
  const problems = goal.changes.flatMap((change, i) => changeProblems(world, change, `changes.${i}`));
  const calls = goal.changes.map((change) => changeCall(world, change));
  if (problems.length === 0 && new Set(calls).size < calls.length)
    problems.push("changes: two changes make the same call; a task asks for distinct changes");
  return problems.length > 0 ? { ok: false, problems } : { ok: true, goal, world };
}

export function validateOfficeGoal(input: unknown): OfficeGoal {
  const check = checkOfficeGoal(input);
  if (!check.ok) throw new OfficeGoalError(check.problems);
  return check.goal;
}

/** The calls the task needs made, in no particular order. */
export function requiredCalls(world: World, goal: OfficeGoal): string[] {
  return goal.changes.map((change) => changeCall(world, change) ?? "");
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function describeChange(world: World, change: OfficeChange): string {
  switch (change.kind) {
    case "close_ticket": {
      const t = world.tickets.find((x) => x.id === change.ticket);
      return t ? `close the open ${t.tag} ticket from ${fullName(world.people, t.requester)}` : "";
    }
    case "cancel_event": {
      const e = world.events.find((x) => x.id === change.event);
      return e ? `cancel the ${e.title} on ${capital(e.day)}` : "";
    }
    case "delete_file": {
      const f = world.files.find((x) => x.path === change.path);
      return f ? `delete the ${f.name} that ${fullName(world.people, f.owner)} keeps in ${f.folder}` : "";
    }
    case "close_noted": {
      const f = world.files.find((x) => x.path === change.note);
      return f
        ? `close the ticket that the follow-up notes of ${fullName(world.people, f.owner)} mark as done`
        : "";
    }
  }
}

export function officeInstruction(goal: OfficeGoal, world: World = generateWorld(goal.world)): string {
  const parts = goal.changes.map((change) => describeChange(world, change));
  return `${capital(parts.join(", and "))}.`;
}
