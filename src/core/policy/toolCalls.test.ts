import { describe, expect, it } from "vitest";
import type { Task } from "../types";
import { parseAction } from "./action";
import { buildContext } from "./context";
import { decisionFeatures } from "./features";

describe("tool calls as the policy reads them", () => {
  it("parses name(args) into the call's name, its arguments and the id or path it acts on", () => {
    expect(parseAction("close_ticket(417)")).toMatchObject({
      verb: "close_ticket",
      argument: "417",
      handle: "417",
    });
    expect(parseAction('search_tickets(requester="dana")')).toMatchObject({
      verb: "search_tickets",
      content: ["requester", "dana"],
      handle: "dana",
    });
    expect(parseAction('read_file("/notes/Dana-followups.txt")').handle).toBe("/notes/dana-followups.txt");
    expect(parseAction("reply(ticket=17, text='thanks')").handle).toBe("17");
    // The other domains' actions are read as before: no handle.
    expect(parseAction("go to cabinet 1")).toMatchObject({ verb: "go to", argument: "cabinet 1" });
    expect(parseAction("go to cabinet 1").handle).toBeUndefined();
    expect(parseAction("click[b000v3kf]")).toMatchObject({ verb: "click", argument: "b000v3kf" });
    expect(parseAction("click[b000v3kf]").handle).toBeUndefined();
  });

  it("tells two ids apart by the state line each begins, as it tells products apart by their titles", () => {
    const task: Task = {
      id: "t",
      domain: "office",
      instruction: "Close the open billing ticket from Dana Okafor.",
      split: "train",
      origin: "seed",
    };
    const candidates = ["close_ticket(417)", "close_ticket(388)"];
    const features = (text: string) => {
      const { rows } = decisionFeatures(
        buildContext(task, [], { text, actions: candidates }),
        candidates,
        2 ** 18 - 1,
      );
      const row = (i: number) => [...rows.codes.slice(rows.offsets[i], rows.offsets[i + 1])].sort();
      return [row(0), row(1)];
    };
    const [first, second] = features(
      'search_tickets(requester="dana") found 2 tickets:\n417 | open billing ticket | charged twice | from Dana Okafor\n388 | closed shipping ticket | parcel late | from Dana Okafor',
    );
    expect(first).not.toEqual(second);
    // Without the lines the two calls look alike but for their order among the candidates.
    const [bare0, bare1] = features("nothing found");
    expect(bare0?.length).toBe(bare1?.length);
    expect(first?.length).toBeGreaterThan(bare0?.length ?? 0);
  });
});
