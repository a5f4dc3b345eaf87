import { describe, expect, it } from "vitest";
import { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { DEFAULTS, emptyForm, toRegistration } from "./registration";

describe("the register form's registration", () => {
  it("sends the schema's defaults when the advanced fields are left as shown", () => {
    const input = toRegistration({
      ...emptyForm(),
      name: " desk ",
      url: "http://127.0.0.1:9/ ",
      protocol: "agentgym",
    });
    expect(input).toMatchObject({ name: "desk", url: "http://127.0.0.1:9/", protocol: "agentgym" });
    expect(input).not.toHaveProperty("token");
    expect(input).not.toHaveProperty("instructionPattern");
    const parsed = RemoteEnvSpec.parse(input);
    expect({ ...parsed, name: "x", url: "http://x", protocol: DEFAULTS.protocol }).toEqual(DEFAULTS);
  });

  it("leaves blank fields out, fills a task range's blank parts from the defaults, and keeps what is typed", () => {
    const input = toRegistration({
      ...emptyForm(),
      name: "desk",
      url: "http://h:1",
      token: "t0k",
      concurrency: "",
      maxSteps: "12",
      trainFirst: "5",
      trainCount: "",
      testFirst: "",
      testCount: "",
      instructionPattern: "Ticket: (.*)",
      successReward: "0.5",
      stepTimeoutMs: "",
    });
    expect(input).toMatchObject({
      token: "t0k",
      maxSteps: 12,
      successReward: 0.5,
      instructionPattern: "Ticket: (.*)",
    });
    expect(input).not.toHaveProperty("concurrency");
    expect(input).not.toHaveProperty("stepTimeoutMs");
    expect(input.tasks).toEqual({ train: { first: 5, count: 1_000 }, test: { first: 1_000, count: 100 } });
    const blank = toRegistration({
      ...emptyForm(),
      trainFirst: "",
      trainCount: "",
      testFirst: "",
      testCount: "",
    });
    expect(blank).not.toHaveProperty("tasks");
  });
});
