import { describe, expect, it } from "vitest";
import { describeLock, remaining } from "./time";

const now = new Date(2026, 10, 23, 14, 28, 10);
const at = (h: number, m: number, s = 0) => new Date(2026, 10, 23, h, m, s);
const hhmm = (d: Date) => d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

describe("lock times", () => {
  it("says who holds a trace until when in local time, and for how long, never as a raw UTC stamp", () => {
    const until = at(14, 32, 10);
    const text = describeLock("Ana", until, now);
    expect(text).toBe(`Locked by Ana until ${hhmm(until)} (for 4 more minutes)`);
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT|Z\b/);
    expect(describeLock(null, null, now)).toBe("Locked by another annotator");
  });

  it("counts the minutes left", () => {
    expect(remaining(at(14, 33, 10), now)).toBe("for 5 more minutes");
    expect(remaining(at(14, 29, 20), now)).toBe("for 1 more minute");
    expect(remaining(at(14, 28, 40), now)).toBe("for less than a minute");
  });

  it("names the day when the lock does not end today", () => {
    expect(describeLock("Ana", new Date(2026, 10, 24, 9, 0), now)).toMatch(/^Locked by Ana until \S+ 24 /);
  });
});
