/**
 * The clients' parts on their own: how OpenEnv observations of different environments read as DreamGym's, what a
 * reset sends, WebShop's actions, where an instruction comes from, how failures are sorted, and the backoff.
 */
import { describe, expect, it } from "vitest";
import { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { stripInstructionLabel, webshopActions } from "./agentgymWebshop";
import { backoffDelay } from "./backoff";
import { kindOfStatus } from "./failure";
import { httpBase, malformedDetail, wsBase } from "./http";
import { actionData, OpenenvResult, readResult, resetData } from "./openenvWire";
import { instructionOf, splitOfNumber } from "./probe";

const spec = RemoteEnvSpec.parse({
  name: "product",
  url: "https://env.example.test/base",
  protocol: "openenv-ws",
  resetFields: { difficulty: "hard", seed: 999, split: "validation" },
});

const read = (json: unknown) => readResult(OpenenvResult.parse(json));

describe("OpenEnv observations", () => {
  it("read DreamGym's own fields", () => {
    const r = read({
      observation: {
        text: "a page",
        available_actions: ["click[a]"],
        instruction: "buy",
        valid: false,
        success: false,
      },
      reward: null,
      done: false,
      metadata: { episode_id: "e" },
    });
    expect(r).toEqual({
      observation: { text: "a page", actions: ["click[a]"], instruction: "buy" },
      reward: 0,
      done: false,
      success: false,
      valid: false,
    });
  });

  it("read other environments' usual names, and fall back to the fields as JSON", () => {
    expect(
      read({ observation: { goal: "g", text: "t", axtree_txt: "x" }, reward: 1, done: true }),
    ).toMatchObject({
      observation: { text: "t", instruction: "g" },
      reward: 1,
      done: true,
    });
    expect(
      read({ observation: { messages: [{ content: "hi" }, { content: "there" }] }, reward: true }).observation
        .text,
    ).toBe("hi\nthere");
    expect(read({ observation: { fen: "8/8", legal_moves: ["e4"] } }).observation).toEqual({
      text: "8/8",
      actions: ["e4"],
    });
    expect(read({ observation: { maze: [[0, 1]], legal_actions: [0, 2] } }).observation).toEqual({
      text: '{"maze":[[0,1]],"legal_actions":[0,2]}',
      actions: ["0", "2"],
    });
  });

  it("refuse a reply without its observation", () => {
    expect(OpenenvResult.safeParse({ reward: 0, done: false }).success).toBe(false);
  });
});

it("a reset sends the task number as seed and index, with split and evaluation; the registration's fields never change the number", () => {
  expect(resetData(spec, { number: 1_004, split: "test" })).toEqual({
    split: "validation",
    evaluation: true,
    difficulty: "hard",
    seed: 1_004,
    index: 1_004,
  });
});

it("an OpenEnv action travels in the registration's action field (`action` unless it names another)", () => {
  expect(
    actionData(RemoteEnvSpec.parse({ name: "x", url: "http://h", protocol: "openenv-http" }), "go"),
  ).toEqual({
    action: "go",
  });
  const browser = RemoteEnvSpec.parse({
    name: "x",
    url: "http://h",
    protocol: "openenv-ws",
    actionField: "action_str",
  });
  expect(actionData(browser, "click('12')")).toEqual({ action_str: "click('12')" });
});

it("WebShop's search bar is search[...], its other clickables click[...]", () => {
  expect(webshopActions({ has_search_bar: true, clickables: ["search"] })).toEqual(["search[...]"]);
  expect(
    webshopActions({ has_search_bar: false, clickables: ["Back to Search", "B0001", "search"] }),
  ).toEqual(["click[Back to Search]", "click[B0001]", "click[search]"]);
  expect(stripInstructionLabel("Instruction: Find me shoes ")).toBe("Find me shoes");
});

it("an instruction comes from the protocol, else the registration's pattern, else the protocol's, else the text", () => {
  const first = { text: "Hello.\nYour task is to: cool a mug.\n", instruction: "from the field" };
  expect(instructionOf(spec, first, "served")).toBe("served");
  expect(instructionOf(spec, first, undefined)).toBe("from the field");
  const plain = { text: first.text };
  expect(instructionOf({ ...spec, instructionPattern: "task is to: (\\w+)" }, plain, undefined)).toBe("cool");
  expect(instructionOf({ ...spec, instructionPattern: "Hello" }, plain, undefined)).toBe("Hello");
  expect(instructionOf(spec, plain, undefined, /Your task is to:\s*(.*)/)).toBe("cool a mug.");
  expect(instructionOf(spec, plain, undefined)).toBe("Hello.\nYour task is to: cool a mug.");
});

it("task numbers belong to the split whose range holds them (train where both do)", () => {
  expect(splitOfNumber(spec, 5)).toBe("train");
  expect(splitOfNumber(spec, 1_050)).toBe("test");
  const overlapping = { ...spec, tasks: { train: { first: 0, count: 10 }, test: { first: 0, count: 10 } } };
  expect(splitOfNumber(overlapping, 3)).toBe("train");
});

it("failures are sorted by what the episode does about them", () => {
  expect([500, 502, 408, 429].map((s) => kindOfStatus(s, true))).toEqual(Array(4).fill("unavailable"));
  expect(kindOfStatus(404, true)).toBe("lost");
  expect([404, 401, 403, 422].map((s) => kindOfStatus(s, false))).toEqual(Array(4).fill("refused"));
  expect(malformedDetail({ error: "KeyError: 3" }, "x")).toBe(
    "the server answered with an error: KeyError: 3",
  );
});

it("backoff starts at 200 ms, doubles, and stops at 5 s", () => {
  expect([0, 1, 2, 3, 4, 5, 6, 40].map(backoffDelay)).toEqual([
    200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000,
  ]);
});

it("one registered URL serves HTTP and WebSocket", () => {
  expect(httpBase("wss://h.test/a/")).toBe("https://h.test/a");
  expect(wsBase("https://h.test/a")).toBe("wss://h.test/a");
  expect(wsBase("http://h.test")).toBe("ws://h.test");
});
