/** "14:03:12", or with the date when it is not today: review history reads in local time. */
export function clock(date: Date, now = new Date()): string {
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return date.toDateString() === now.toDateString()
    ? time
    : `${date.toLocaleDateString([], { month: "short", day: "numeric" })} ${time}`;
}

/** "just now", "4 min ago", "3 h ago", "2 d ago". */
export function ago(date: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** "14:32", or with the date when it is not today: when a lock ends, to the minute, in local time. */
export function clockMinutes(date: Date, now = new Date()): string {
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return date.toDateString() === now.toDateString()
    ? time
    : `${date.toLocaleDateString([], { month: "short", day: "numeric" })} ${time}`;
}

/** "for 4 more minutes", "for 1 more minute", "for less than a minute". */
export function remaining(until: Date, now = new Date()): string {
  const ms = until.getTime() - now.getTime();
  if (ms < 60_000) return "for less than a minute";
  const minutes = Math.round(ms / 60_000);
  return minutes === 1 ? "for 1 more minute" : `for ${minutes} more minutes`;
}

/** "Locked by Ana until 14:32 (for 4 more minutes)": who has a trace, in local time and in minutes left. */
export function describeLock(holder: string | null, until: Date | null, now = new Date()): string {
  const who = holder ? `Locked by ${holder}` : "Locked by another annotator";
  return until ? `${who} until ${clockMinutes(until, now)} (${remaining(until, now)})` : who;
}
