/**
 * The hidden state behind an office task: a small company's people, helpdesk tickets, calendar and files, all
 * generated from one seed, so a task is its seed plus the changes it asks for, and every episode can be rebuilt
 * from its actions alone. Limits on how many records share a requester, a day or a folder keep every lookup's
 * answer (and so the candidate actions) short.
 */
import { Rng } from "../../util/random";

export const FIRST_NAMES = [
  "Ada",
  "Bruno",
  "Chiara",
  "Dana",
  "Elena",
  "Farid",
  "Greta",
  "Hugo",
  "Ines",
  "Jonas",
  "Keiko",
  "Liam",
  "Maya",
  "Nils",
  "Olga",
  "Pavel",
  "Quinn",
  "Rosa",
  "Sami",
  "Tara",
  "Umar",
  "Vera",
  "Wen",
  "Yusuf",
] as const;
export const LAST_NAMES = [
  "Moreau",
  "Okafor",
  "Lindqvist",
  "Tanaka",
  "Silva",
  "Novak",
  "Haddad",
  "Fischer",
  "Kowalski",
  "Rossi",
  "Nguyen",
  "Brennan",
  "Petrov",
  "Alvarez",
  "Dubois",
  "Sato",
] as const;

export const TAGS = ["billing", "shipping", "login", "outage", "refund", "invoice"] as const;
export type Tag = (typeof TAGS)[number];
const SUBJECTS: Record<Tag, readonly string[]> = {
  billing: ["charged twice this month", "wrong plan on the bill", "card declined at renewal"],
  shipping: ["parcel stuck at the depot", "wrong address on the label", "delivery arrived damaged"],
  login: ["cannot sign in after reset", "two-factor code never arrives", "account locked out"],
  outage: ["dashboard down since morning", "exports time out", "api returns errors"],
  refund: ["refund not received", "partial refund too small", "refund sent to old card"],
  invoice: ["invoice missing vat number", "need a copy of the invoice", "invoice has the wrong company"],
};
export const STATUSES = ["open", "pending", "closed"] as const;
export type Status = (typeof STATUSES)[number];

export const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday"] as const;
export type Day = (typeof DAYS)[number];
export const TITLES = [
  "budget review",
  "design sync",
  "hiring panel",
  "sprint planning",
  "vendor call",
  "quarterly review",
  "board prep",
  "team lunch",
  "security audit",
  "product demo",
] as const;

export const FOLDERS = ["/reports", "/drafts", "/notes"] as const;
export type Folder = (typeof FOLDERS)[number];
const TOPICS = [
  "budget",
  "roadmap",
  "hiring",
  "pricing",
  "launch",
  "security",
  "travel",
  "onboarding",
] as const;
const KINDS = ["plan", "summary", "memo", "outline"] as const;

/** At most this many records answer one lookup by requester, day or folder. */
export const MAX_PER_LOOKUP = 4;
/** A search by tag lists this many tickets (the newest), as a search engine's first page would. */
export const TAG_PAGE = 4;

export interface Person {
  first: string;
  last: string;
}
export interface Ticket {
  id: number;
  requester: string;
  tag: Tag;
  status: Status;
  subject: string;
}
export interface CalendarEvent {
  id: number;
  title: string;
  day: Day;
  hour: number;
  attendees: string[];
}
/** A follow-up note's line about one ticket: "done" ones may be closed, the others must stay as they are. */
export interface NoteLine {
  ticket: number;
  done: boolean;
  remark: string;
}
export interface OfficeFile {
  path: string;
  folder: Folder;
  /** The words of the file name, e.g. "budget plan". */
  name: string;
  owner: string;
  kb: number;
  text: string;
  /** Set for follow-up notes: the tickets the note's owner is following. */
  followups?: NoteLine[];
}

export interface World {
  seed: number;
  people: Person[];
  tickets: Ticket[];
  events: CalendarEvent[];
  files: OfficeFile[];
}

/** "Dana Okafor" for "Dana": instructions and records name people in full, lookups by first name. */
export function fullName(people: readonly Person[], first: string): string {
  const person = people.find((p) => p.first === first);
  return person ? `${person.first} ${person.last}` : first;
}

function distinctIds(rng: Rng, count: number, min: number, max: number): number[] {
  const ids = new Set<number>();
  while (ids.size < count) ids.add(rng.int(min, max));
  return [...ids];
}

/** Picks a key whose count is below the cap. */
function capped<T>(rng: Rng, items: readonly T[], counts: Map<T, number>, cap: number): T {
  const open = items.filter((item) => (counts.get(item) ?? 0) < cap);
  const choice = rng.pick(open);
  counts.set(choice, (counts.get(choice) ?? 0) + 1);
  return choice;
}

function makeTickets(rng: Rng, people: Person[]): Ticket[] {
  const perPerson = new Map<string, number>();
  const firsts = people.map((p) => p.first);
  return distinctIds(rng, 12, 100, 999).map((id, i) => {
    // Everyone files at least one ticket; the rest go to people with room under the cap.
    const requester =
      i < firsts.length ? (firsts[i] as string) : capped(rng, firsts, perPerson, MAX_PER_LOOKUP);
    if (i < firsts.length) perPerson.set(requester, 1);
    const tag = rng.pick(TAGS);
    const roll = rng.next();
    const status: Status = roll < 0.55 ? "open" : roll < 0.75 ? "pending" : "closed";
    return { id, requester, tag, status, subject: rng.pick(SUBJECTS[tag]) };
  });
}

function makeEvents(rng: Rng, people: Person[]): CalendarEvent[] {
  const perDay = new Map<Day, number>();
  const hours = new Set<string>();
  return distinctIds(rng, 10, 1000, 9999).map((id) => {
    const day = capped(rng, DAYS, perDay, MAX_PER_LOOKUP);
    let hour = rng.int(9, 17);
    while (hours.has(`${day}:${hour}`)) hour = hour === 17 ? 9 : hour + 1;
    hours.add(`${day}:${hour}`);
    const attendees = rng.sample(people, rng.int(1, 2)).map((p) => p.first);
    return { id, title: rng.pick(TITLES), day, hour, attendees };
  });
}

const REMARKS_KEPT = ["waiting for the customer, keep it open", "handed to engineering, leave it"];

function followupNote(
  rng: Rng,
  owner: string,
  tickets: Ticket[],
  taken: Set<number>,
): OfficeFile | undefined {
  const open = tickets.filter((t) => t.status === "open" && !taken.has(t.id));
  if (open.length === 0) return undefined;
  const done = rng.pick(open);
  taken.add(done.id);
  const others = rng.sample(
    tickets.filter((t) => t.id !== done.id),
    rng.int(1, 2),
  );
  const lines: NoteLine[] = rng.shuffle([
    { ticket: done.id, done: true, remark: "done, close it" },
    ...others.map((t) => ({ ticket: t.id, done: false, remark: rng.pick(REMARKS_KEPT) })),
  ]);
  return {
    path: `/notes/${owner.toLowerCase()}-followups.txt`,
    folder: "/notes",
    name: "followups",
    owner,
    kb: 1,
    text: "",
    followups: lines,
  };
}

function makeFiles(rng: Rng, people: Person[], tickets: Ticket[]): OfficeFile[] {
  const files: OfficeFile[] = [];
  const taken = new Set<number>();
  for (const owner of rng.sample(people, 2)) {
    const note = followupNote(rng, owner.first, tickets, taken);
    if (note) files.push(note);
  }
  const perFolder = new Map<Folder, number>([["/notes", files.length]]);
  const paths = new Set(files.map((f) => f.path));
  for (let i = 0; i < 8; i++) {
    const folder = capped(rng, FOLDERS, perFolder, MAX_PER_LOOKUP);
    const topic = rng.pick(TOPICS);
    const kind = rng.pick(KINDS);
    const owner = rng.pick(people).first;
    let path = `${folder}/${topic}-${kind}.txt`;
    // A second file of the same name (another author's) gets a suffix, as a shared drive would.
    for (let n = 2; paths.has(path); n++) path = `${folder}/${topic}-${kind}-${n}.txt`;
    paths.add(path);
    files.push({
      path,
      folder,
      name: `${topic} ${kind}`,
      owner,
      kb: rng.int(2, 40),
      text: `${topic} ${kind} by ${fullName(people, owner)}, ${rng.int(2, 9)} pages, last edited in week ${rng.int(1, 52)}.`,
    });
  }
  return files;
}

/** The world of a seed: the same on every machine and in every version. */
export function generateWorld(seed: number): World {
  const rng = new Rng(seed);
  const firsts = rng.sample(FIRST_NAMES, 8);
  const lasts = rng.sample(LAST_NAMES, 8);
  const people = firsts.map((first, i) => ({ first, last: lasts[i] as string }));
  const tickets = makeTickets(rng, people);
  const events = makeEvents(rng, people);
  const files = makeFiles(rng, people, tickets);
  return { seed, people, tickets, events, files };
}
