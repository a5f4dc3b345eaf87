/**
 * The office's tool API: calls written as text, answered as text. Lookups (search tickets by requester or tag,
 * list a day's events, list a folder) are always available; a record's own calls (close a ticket, cancel an
 * event, read or delete a file) become available once a lookup has shown the record, as an API needs an id the
 * agent has found. Every answer puts one record on a line that starts with its id, so the agent reads what an
 * id stands for next to it.
 */
import { DAYS, FOLDERS, fullName, TAG_PAGE, TAGS, type Ticket, type World } from "./world";

/** What changed in the world during an episode (the world itself is never mutated: it is the seed's). */
export interface Changes {
  closed: Set<number>;
  cancelled: Set<number>;
  deleted: Set<string>;
}

export interface Episode {
  world: World;
  changes: Changes;
  /** Record calls of the last answer, offered next. */
  shown: string[];
  /** Record calls of every answer so far: an agent may act on an id it found earlier. */
  known: Set<string>;
}

export interface CallOutcome {
  valid: boolean;
  text: string;
  /** The change this call made, as its call text; absent for lookups, errors and calls that changed nothing. */
  change?: string;
}

export function startEpisode(world: World): Episode {
  return {
    world,
    changes: { closed: new Set(), cancelled: new Set(), deleted: new Set() },
    shown: [],
    known: new Set(),
  };
}

/** The lookups, in a fixed order: the same in every state of every task of a world. */
export function lookupCalls(world: World): string[] {
  return [
    ...world.people.map((p) => `search_tickets(requester="${p.first.toLowerCase()}")`),
    ...TAGS.map((tag) => `search_tickets(tag="${tag}")`),
    ...DAYS.map((day) => `list_events(day="${day}")`),
    ...FOLDERS.map((folder) => `list_files(folder="${folder}")`),
  ];
}

/** The calls a policy may choose from now: the last answer's record calls first, then the lookups. */
export function availableCalls(episode: Episode): string[] {
  return [...episode.shown, ...lookupCalls(episode.world)];
}

/** Calls compare without case or spaces: `Close_Ticket( 417 )` is `close_ticket(417)`. */
export function callKey(call: string): string {
  return call.trim().toLowerCase().replace(/\s+/g, "");
}

function statusOf(episode: Episode, ticket: Ticket): string {
  return episode.changes.closed.has(ticket.id) ? "closed" : ticket.status;
}

function ticketLine(episode: Episode, t: Ticket): string {
  return `${t.id} | ${statusOf(episode, t)} ${t.tag} ticket | ${t.subject} | from ${fullName(episode.world.people, t.requester)}`;
}

function counted(n: number, noun: string): string {
  return n === 0 ? `no ${noun}s` : n === 1 ? `1 ${noun}` : `${n} ${noun}s`;
}

interface Answer {
  text: string;
  records: string[];
}

function searchTickets(episode: Episode, call: string, field: "requester" | "tag", value: string): Answer {
  const all = episode.world.tickets.filter((t) =>
    field === "requester" ? t.requester.toLowerCase() === value : t.tag === value,
  );
  const page = field === "tag" ? [...all].sort((a, b) => b.id - a.id).slice(0, TAG_PAGE) : all;
  const more = all.length > page.length ? `, showing the newest ${page.length}` : "";
  const lines = page.map((t) => ticketLine(episode, t));
  return {
    text: [`${call} found ${counted(all.length, "ticket")}${more}:`, ...lines].join("\n"),
    records: page.map((t) => `close_ticket(${t.id})`),
  };
}

function listEvents(episode: Episode, call: string, day: string): Answer {
  const events = episode.world.events
    .filter((e) => e.day === day && !episode.changes.cancelled.has(e.id))
    .sort((a, b) => a.hour - b.hour);
  const lines = events.map(
    (e) =>
      `${e.id} | ${e.day} ${e.hour}:00 | ${e.title} | with ${e.attendees.map((a) => fullName(episode.world.people, a)).join(", ")}`,
  );
  return {
    text: [`${call} found ${counted(events.length, "event")}:`, ...lines].join("\n"),
    records: events.map((e) => `cancel_event(${e.id})`),
  };
}

function listFiles(episode: Episode, call: string, folder: string): Answer {
  const files = episode.world.files.filter(
    (f) => f.folder === folder && !episode.changes.deleted.has(f.path),
  );
  const lines = files.map(
    (f) =>
      `${f.path} | ${f.followups ? "follow-up notes" : f.name} | by ${fullName(episode.world.people, f.owner)} | ${f.kb} KB`,
  );
  return {
    text: [`${call} found ${counted(files.length, "file")}:`, ...lines].join("\n"),
    records: files.flatMap((f) => [
      `read_file("${f.path}")`,
      ...(f.followups ? [] : [`delete_file("${f.path}")`]),
    ]),
  };
}

function readFile(episode: Episode, call: string, path: string): Answer {
  const file = episode.world.files.find((f) => f.path === path && !episode.changes.deleted.has(f.path));
  if (!file) return { text: `${call}: error, no such file`, records: [] };
  if (!file.followups) return { text: `${call}:\n${file.text}`, records: [`delete_file("${file.path}")`] };
  const tickets = episode.world.tickets;
  const lines = file.followups.map((line) => {
    const t = tickets.find((x) => x.id === line.ticket);
    return `${line.ticket} | ${t ? `${t.tag} ticket` : "ticket"} | ${line.remark}`;
  });
  return {
    text: [`${call}: follow-up notes of ${fullName(episode.world.people, file.owner)}`, ...lines].join("\n"),
    records: file.followups.map((line) => `close_ticket(${line.ticket})`),
  };
}

function closeTicket(episode: Episode, call: string, id: number): CallOutcome {
  const ticket = episode.world.tickets.find((t) => t.id === id);
  if (!ticket) return { valid: true, text: `${call}: error, no ticket ${id}` };
  if (statusOf(episode, ticket) === "closed")
    return { valid: true, text: `${call}: ticket ${id} is already closed; nothing changed` };
  episode.changes.closed.add(id);
  return { valid: true, text: `${call}: ticket ${id} closed`, change: call };
}

function cancelEvent(episode: Episode, call: string, id: number): CallOutcome {
  const event = episode.world.events.find((e) => e.id === id);
  if (!event || episode.changes.cancelled.has(id))
    return { valid: true, text: `${call}: error, no event ${id}` };
  episode.changes.cancelled.add(id);
  return {
    valid: true,
    text: `${call}: ${event.title} on ${event.day} ${event.hour}:00 cancelled`,
    change: call,
  };
}

function deleteFile(episode: Episode, call: string, path: string): CallOutcome {
  const file = episode.world.files.find((f) => f.path === path);
  if (!file || episode.changes.deleted.has(path))
    return { valid: true, text: `${call}: error, no such file` };
  episode.changes.deleted.add(path);
  return { valid: true, text: `${call}: ${path} deleted`, change: call };
}

const CALL = /^([a-z_]+)\((?:([a-z]+)=)?(?:"([^"]*)"|(\d+))\)$/;

/**
 * Runs one call. A call that is neither a lookup nor a record call the agent has found is invalid: the world is
 * unchanged and the answer says so. A valid call's record calls replace the offered ones.
 */
export function runCall(episode: Episode, action: string): CallOutcome {
  const key = callKey(action);
  const lookups = lookupCalls(episode.world);
  const canonical =
    lookups.find((c) => callKey(c) === key) ?? [...episode.known].find((c) => callKey(c) === key);
  const match = canonical === undefined ? null : CALL.exec(canonical);
  if (canonical === undefined || !match)
    return { valid: false, text: `Error: ${action.trim() || "(empty)"} is not an available call.` };
  const [, name, field, text, number] = match;
  const value = text ?? "";
  const id = Number(number);
  let answer: Answer | undefined;
  let outcome: CallOutcome | undefined;
  if (name === "search_tickets")
    answer = searchTickets(episode, canonical, field === "tag" ? "tag" : "requester", value);
  else if (name === "list_events") answer = listEvents(episode, canonical, value);
  else if (name === "list_files") answer = listFiles(episode, canonical, value);
  else if (name === "read_file") answer = readFile(episode, canonical, value);
  else if (name === "close_ticket") outcome = closeTicket(episode, canonical, id);
  else if (name === "cancel_event") outcome = cancelEvent(episode, canonical, id);
  else outcome = deleteFile(episode, canonical, value);
  if (answer) {
    episode.shown = answer.records;
    for (const record of answer.records) episode.known.add(record);
    return { valid: true, text: answer.text };
  }
  episode.shown = [];
  return outcome as CallOutcome;
}
