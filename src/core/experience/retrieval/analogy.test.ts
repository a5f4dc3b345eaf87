import { describe, expect, it } from "vitest";
import { analogy, applySubstitutions } from "./analogy";

describe("analogy", () => {
  it("rewrites a demonstration's outcome for another receptacle", () => {
    const a = analogy(
      { state: "You arrive at cabinet 2. The cabinet 2 is closed.", action: "open cabinet 2" },
      { state: "You arrive at drawer 1. The drawer 1 is closed.", action: "open drawer 1" },
    );
    const out = applySubstitutions(
      "You open the cabinet 2. The cabinet 2 is open. In it, you see nothing.",
      a.substitutions,
    );
    expect(out.text).toBe("You open the drawer 1. The drawer 1 is open. In it, you see nothing.");
    expect(out.replaced).toBe(2);
  });

  it("keeps a place both actions name as it is, however the lists around it shifted", () => {
    // A made-up workshop: the demonstration's hall had one bench, this one has three.
    const a = analogy(
      { state: "In the hall you see a bench 1, a lathe 2, a lathe 1.", action: "walk to bench 1" },
      {
        state: "In the hall you see a bench 3, a bench 2, a bench 1, a lathe 1.",
        action: "walk to bench 1",
      },
      undefined,
      true,
    );
    const out = applySubstitutions("You reach bench 1. On the bench 1 lies a file 2.", a.substitutions);
    expect(out.text).toBe("You reach bench 1. On the bench 1 lies a file 2.");
  });

  it("keeps the word before a lone number, so other numbered things are left alone", () => {
    const a = analogy(
      { state: "At drawer 6.", action: "open drawer 6" },
      { state: "At drawer 1.", action: "open drawer 1" },
    );
    const out = applySubstitutions("The drawer 6 is open. In it, you see a pen 6.", a.substitutions);
    expect(out.text).toBe("The drawer 1 is open. In it, you see a pen 6.");
  });

  it("carries the item's title and price over from the results page, matching the case of the target", () => {
    const a = analogy(
      { state: "Page 1 [SEP] B01 [SEP] Lumera Rosewood Lipstick [SEP] $14.79", action: "click[b01]" },
      { state: "Page 1 [SEP] B02 [SEP] Aveline Coral Lipstick [SEP] $8.49", action: "click[b02]" },
    );
    const out = applySubstitutions(
      "< Prev [SEP] Lumera Rosewood Lipstick [SEP] Price: $14.79 [SEP] Buy Now",
      a.substitutions,
    );
    expect(out.text).toBe("< Prev [SEP] Aveline Coral Lipstick [SEP] Price: $8.49 [SEP] Buy Now");
  });

  it("scores overlap 1 for the same situation and less for a different one", () => {
    expect(analogy({ state: "s a b", action: "go" }, { state: "s a b", action: "go" }).overlap).toBe(1);
    expect(
      analogy({ state: "s a b", action: "go" }, { state: "x y z", action: "stop" }).overlap,
    ).toBeLessThan(0.3);
  });
});

describe("an analogy between two tasks' own worlds", () => {
  const demo = { state: "Request:", action: 'search_tickets(requester="keiko")' };
  const current = { state: "Request:", action: 'search_tickets(requester="maya")' };
  const page =
    "search found 2 tickets:\n726 | open shipping ticket | from Keiko Alvarez\n883 | open billing ticket | from Keiko Alvarez";

  it("rewrites the record a demonstration's request described into the one this request describes", () => {
    const a = analogy(demo, current, {
      demo: "Close the open shipping ticket from Keiko Alvarez.",
      current: "Close the open login ticket from Maya Tanaka, and cancel the design sync on Monday.",
    });
    const out = applySubstitutions(page, a.substitutions).text;
    expect(out).toContain("726 | open login ticket | from Maya Tanaka");
    // The other clause of the request is no slot value: it is not glued onto a name.
    expect(out).not.toContain("cancel");
  });

  it("takes nothing from requests of another kind, and nothing without the two requests", () => {
    const other = analogy(demo, current, {
      demo: "Cancel the board prep on Tuesday.",
      current: "Close the open login ticket from Maya Tanaka.",
    });
    expect(applySubstitutions(page, other.substitutions).text).toMatch(
      /open shipping ticket \| from maya alvarez/i,
    );
    expect(applySubstitutions(page, analogy(demo, current).substitutions).text).toMatch(/from maya alvarez/i);
  });
});

describe("a lookup where the request does not point", () => {
  it("finds nothing of the request: its difference is carried over only by an action that bears on it alike", () => {
    const goal = {
      demo: "Close the open shipping ticket from Keiko Alvarez.",
      current: "Close the open login ticket from Maya Tanaka.",
    };
    const page = "726 | open shipping ticket | from Keiko Alvarez";
    const demo = { state: "Request:", action: 'search_tickets(requester="keiko")' };
    const elsewhere = analogy(demo, { state: "Request:", action: 'search_tickets(requester="ada")' }, goal);
    expect(applySubstitutions(page, elsewhere.substitutions).text).not.toContain("login");
    const pointed = analogy(demo, { state: "Request:", action: 'search_tickets(requester="maya")' }, goal);
    expect(applySubstitutions(page, pointed.substitutions).text).toContain("open login ticket");
  });
});

describe("names spelt as paths and slugs", () => {
  const launchPlan = { from: ["launch", "plan"], to: ["hiring", "outline"], weight: 2 };

  it("rewrites the words a path is spelt from, joined as the path joins them", () => {
    const page = "/drafts/launch-plan.txt | launch plan | by Keiko Alvarez";
    expect(applySubstitutions(page, [launchPlan]).text).toBe(
      "/drafts/hiring-outline.txt | hiring outline | by Keiko Alvarez",
    );
    expect(
      applySubstitutions("team_lunch.ics", [{ from: ["team", "lunch"], to: ["Budget", "Review"], weight: 1 }])
        .text,
    ).toBe("budget_review.ics");
    // A one-word name that becomes two takes the slug's own joiner.
    expect(
      applySubstitutions("/notes/plan_v2.txt", [{ from: ["plan"], to: ["Launch", "Plan"], weight: 1 }]).text,
    ).toBe("/notes/launch_plan_v2.txt");
  });

  it("keeps a path rewritten to itself as it was, every joiner in its place", () => {
    const path = ["reports", "launch", "memo", "txt"];
    const page = 'delete_file("/reports/launch-memo.txt") deleted';
    expect(applySubstitutions(page, [{ from: path, to: path, weight: 1 }])).toEqual({
      text: page,
      replaced: 1,
    });
  });

  it("never joins a phrase's words across both a space and a joiner", () => {
    const page = "launch-plan and launch plan-b";
    expect(applySubstitutions(page, [launchPlan]).text).toBe("hiring-outline and hiring outline-b");
    expect(applySubstitutions("launch /plan", [launchPlan]).text).toBe("launch /plan");
  });
});

describe("a lookup where the request says what to look for, not where", () => {
  const goal = {
    demo: "Close the ticket that the follow-up notes of Keiko Alvarez mark as done.",
    current: "Close the ticket that the follow-up notes of Rosa Alvarez mark as done.",
  };
  const page =
    "found 2 files:\n/notes/keiko-followups.txt | follow-up notes | by Keiko Alvarez\n/notes/umar-followups.txt | follow-up notes | by Umar Fischer";
  const look = { state: "Request:", action: 'list_files(folder="/notes")' };

  it("bears on it by its words: the folder named like the notes asked for shows this request's notes", () => {
    const a = analogy(look, look, goal);
    expect(a.carriesRequest).toBe(true);
    const out = applySubstitutions(page, a.substitutions).text;
    expect(out).toContain("/notes/rosa-followups.txt | follow-up notes | by Rosa Alvarez");
    expect(out).toContain("/notes/umar-followups.txt | follow-up notes | by Umar Fischer");
  });

  it("carries nothing from a request of another kind, or from a look the request has no word of", () => {
    const other = { ...goal, demo: "Cancel the board prep on Tuesday." };
    expect(analogy(look, look, other).carriesRequest).toBe(false);
    const elsewhere = { state: "Request:", action: 'list_files(folder="/drafts")' };
    const a = analogy(elsewhere, elsewhere, goal);
    expect(a.carriesRequest).toBe(false);
    expect(applySubstitutions(page, a.substitutions).text).toContain("by Keiko Alvarez");
    expect(analogy(look, look).carriesRequest).toBe(false);
  });
});

describe("a request of two clauses", () => {
  it("carries over what each clause asks, from the demonstration's clause most like it", () => {
    const look = { state: "Request:", action: 'list_files(folder="/notes")' };
    const a = analogy(look, look, {
      demo: "Delete the travel memo that Quinn Rossi keeps in /notes, and close the ticket that the follow-up notes of Vera Alvarez mark as done.",
      current:
        "Delete the launch memo that Greta Novak keeps in /notes, and close the ticket that the follow-up notes of Elena Moreau mark as done.",
    });
    const page =
      "/notes/vera-followups.txt | follow-up notes | by Vera Alvarez\n/notes/travel-memo.txt | travel memo | by Quinn Rossi";
    const out = applySubstitutions(page, a.substitutions).text;
    expect(out).toContain("| follow-up notes | by Elena Moreau");
    expect(out).toContain("/notes/launch-memo.txt | launch memo | by Greta Novak");
  });
});
