import { describe, expect, it } from "vitest";
import { OfficeEnvironment, replaySync } from "./env";
import { validateOfficeGoal } from "./goal";
import { office } from "./index";
import { officeTaskFromGoal } from "./tasks";
import { playEpisode } from "./testing";
import { generateWorld } from "./world";

describe("office environment", () => {
  it("is deterministic: the same task and actions give the same observations, rewards and ends", async () => {
    const task = office.task("train", 4);
    const { steps } = await playEpisode(office.noisy(5, 0.4), task);
    const actions = steps.map((s) => s.action);
    const again = replaySync(task, actions);
    expect(again.map((r) => [r.observation.text, r.reward, r.done, r.valid])).toEqual(
      steps.map((s) => [s.next.text, s.reward, s.done, s.valid]),
    );
    expect(office.task("train", 4)).toEqual(task);
    expect(generateWorld(12345)).toEqual(generateWorld(12345));
  });

  it("answers lookups with one record per line, its id first, and offers that record's calls next", async () => {
    const task = office.task("train", 0);
    const goal = validateOfficeGoal(task.goal);
    const world = generateWorld(goal.world);
    const change = goal.changes[0];
    if (change?.kind !== "close_ticket") throw new Error("train task 0 closes a ticket");
    const ticket = world.tickets.find((t) => t.id === change.ticket);
    if (!ticket) throw new Error("ticket missing");
    const env = new OfficeEnvironment();
    const first = await env.reset(task);
    expect(first.text).toContain(`Request: ${task.instruction}`);
    expect(first.actions?.some((a) => a.startsWith("close_ticket"))).toBe(false);
    const search = `search_tickets(requester="${ticket.requester.toLowerCase()}")`;
    const result = await env.step(search);
    expect(result.valid).toBe(true);
    const line = result.observation.text.split("\n").find((l) => l.startsWith(`${ticket.id} |`));
    expect(line).toContain(`open ${ticket.tag} ticket`);
    expect(result.observation.actions).toContain(`close_ticket(${ticket.id})`);
  });

  it("refuses a call it does not offer, changing nothing, and accepts calls written with other case and spaces", async () => {
    const task = office.task("train", 0);
    const env = new OfficeEnvironment();
    await env.reset(task);
    const goal = validateOfficeGoal(task.goal);
    const change = goal.changes[0];
    if (change?.kind !== "close_ticket") throw new Error("train task 0 closes a ticket");
    // The id is right, but no lookup has shown it yet: an API agent cannot know it.
    const guessed = await env.step(`close_ticket(${change.ticket})`);
    expect(guessed.valid).toBe(false);
    expect(guessed.done).toBe(false);
    expect(guessed.observation.text).toMatch(/not an available call/);
    expect((await env.step("rm -rf /")).valid).toBe(false);
    const world = generateWorld(goal.world);
    const requester = world.tickets.find((t) => t.id === change.ticket)?.requester ?? "";
    const lookup = await env.step(`Search_Tickets( requester = "${requester}" )`);
    expect(lookup.valid).toBe(true);
    const close = await env.step(`close_ticket( ${change.ticket} )`);
    expect(close).toMatchObject({ valid: true, success: true, done: true, reward: 1 });
  });

  it("ends at once, failed, on a change the request did not ask for", async () => {
    const task = office.task("train", 0);
    const env = new OfficeEnvironment();
    const goal = validateOfficeGoal(task.goal);
    const change = goal.changes[0];
    if (change?.kind !== "close_ticket") throw new Error("train task 0 closes a ticket");
    const world = generateWorld(goal.world);
    const other = world.tickets.find((t) => t.id !== change.ticket && t.status === "open");
    if (!other) throw new Error("no other open ticket");
    await env.reset(task);
    await env.step(`search_tickets(requester="${other.requester.toLowerCase()}")`);
    const wrong = await env.step(`close_ticket(${other.id})`);
    expect(wrong).toMatchObject({ valid: true, success: false, done: true, reward: 0 });
    expect(wrong.observation.text).toMatch(/not requested/);
    await expect(env.step('list_files(folder="/notes")')).rejects.toThrow(/after the episode ended/);
  });

  it("needs every change of a two-change request, in either order", async () => {
    const task = office.tasks("test", 12).find((t) => validateOfficeGoal(t.goal).changes.length === 2);
    if (!task) throw new Error("no two-change task");
    const { steps } = await playEpisode(office.expert(), task);
    const writes = steps.filter((s) => /^(close_ticket|cancel_event|delete_file)/.test(s.action));
    expect(writes).toHaveLength(2);
    expect(writes[0]?.done).toBe(false);
    expect(writes[1]).toMatchObject({ done: true, success: true, reward: 1 });
    // The same changes made in the other order: each write after its own lookup.
    const pairs: string[][] = [];
    for (let i = 0; i < steps.length; i++)
      if (writes.includes(steps[i] as (typeof steps)[number]))
        pairs.push([steps[i - 1]?.action ?? "", steps[i]?.action ?? ""]);
    const reversed = replaySync(task, [...(pairs[1] ?? []), ...(pairs[0] ?? [])]);
    expect(reversed.at(-1)).toMatchObject({ success: true, reward: 1 });
  });

  it("ends unsolved after 15 steps", async () => {
    const task = office.task("test", 1);
    const results = replaySync(
      task,
      Array.from({ length: 20 }, () => 'list_files(folder="/reports")'),
    );
    expect(results).toHaveLength(15);
    expect(results.at(-1)).toMatchObject({ done: true, success: false, reward: 0 });
  });

  it("builds its world from the goal alone, and refuses a goal whose description picks out no single record", () => {
    const goal = validateOfficeGoal(office.task("train", 1).goal);
    const task = officeTaskFromGoal(goal, { id: "office:gen:x", split: "train" });
    expect(task.instruction).toBe(office.task("train", 1).instruction);
    expect(() =>
      officeTaskFromGoal(
        { world: goal.world, changes: [{ kind: "close_ticket", ticket: 1 }] },
        { id: "x", split: "train" },
      ),
    ).toThrow(/no ticket 1/);
    const world = generateWorld(goal.world);
    const closed = world.tickets.find((t) => t.status !== "open");
    if (closed)
      expect(() =>
        validateOfficeGoal({ world: goal.world, changes: [{ kind: "close_ticket", ticket: closed.id }] }),
      ).toThrow(/not open/);
    expect(() => validateOfficeGoal({ world: -1, changes: [] })).toThrow(/world/);
  });
});
