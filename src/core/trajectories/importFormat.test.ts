import { describe, expect, it } from "vitest";
import { contentKey, parseImport, rejectionMessage } from "./importFormat";

const step = { state: "s0", action: "click[a]", next_state: "s1", reward: 0, done: false };
const line = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    domain: "web",
    instruction: "find the thing",
    steps: [step, { ...step, state: "s1", next_state: "s2", reward: 1, done: true }],
    ...extra,
  });

describe("import format", () => {
  it("parses good lines and skips blank ones", () => {
    const parsed = parseImport(`${line()}\n\n${line({ instruction: "another" })}\n`);
    expect(parsed.errors).toEqual([]);
    expect(parsed.trajectories.map((t) => t.line)).toEqual([1, 3]);
    expect(parsed.trajectories[0]?.data.split).toBe("train");
    expect(parsed.blank).toBe(2);
  });

  it("reports every bad line with its number and what is wrong where", () => {
    const text = [
      line(),
      "{not json",
      JSON.stringify({ domain: "web", instruction: "x", steps: [{ ...step, reward: "high" }] }),
      JSON.stringify({ domain: "Web Site", instruction: "x", steps: [step] }),
      JSON.stringify({ domain: "web", instruction: "x", steps: [] }),
      JSON.stringify({ domain: "web", instruction: "x", steps: [{ ...step, done: true }, step] }),
      JSON.stringify({ domain: "web", instruction: "x", steps: [step], surprise: 1 }),
    ].join("\n");
    const { errors } = parseImport(text);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(errors[0]?.message).toMatch(/not valid JSON/);
    expect(errors[1]?.message).toMatch(/^steps\[0\]\.reward: .*number/);
    expect(errors[2]?.message).toMatch(/^domain: domain must be lowercase/);
    expect(errors[3]?.message).toMatch(/at least one step/);
    expect(errors[4]?.message).toMatch(/^steps\[0\]\.done: only the last step may be done/);
    expect(errors[5]?.message).toMatch(/surprise/);
  });

  it("rejects an empty file, and one of only blank lines, as empty rather than as a bad line", () => {
    for (const text of ["", "\n\n", "  \r\n\t\n"]) {
      const { errors } = parseImport(text);
      expect(errors, JSON.stringify(text)).toEqual([{ line: 0, message: "the file is empty" }]);
      const message = rejectionMessage("empty.jsonl", errors);
      expect(message).toBe("empty.jsonl was rejected, nothing imported: the file is empty");
      expect(message).not.toMatch(/bad line/);
    }
  });

  it("counts only numbered lines as bad lines", () => {
    const { errors } = parseImport(`${line()}\n{oops\n`);
    expect(rejectionMessage("one.jsonl", errors)).toMatch(
      /^one\.jsonl was rejected \(1 bad line\), nothing imported:\nline 2: not valid JSON/,
    );
  });

  it("keys trajectories by meaning, not by formatting or field order", () => {
    const a = { domain: "web", instruction: "i", steps: [step] };
    const b = {
      steps: [{ done: false, reward: 0, next_state: "s1", action: "click[a]", state: "s0" }],
      instruction: "i",
      domain: "web",
    };
    expect(contentKey(a)).toBe(contentKey(b));
    expect(contentKey(a)).not.toBe(contentKey({ ...a, instruction: "j" }));
    const parsed = parseImport(`${JSON.stringify(a)}\n${JSON.stringify(b, null, 0)}`);
    expect(parsed.trajectories[0]?.key).toBe(parsed.trajectories[1]?.key);
  });
});
