import { LRUCache } from "lru-cache";
import type { Step } from "../types";

/**
 * Small ids for immutable values (tasks, states, history steps), one per distinct JSON, so that a memo can be keyed
 * by what a decision or a prediction reads in a few bytes instead of kilobytes of JSON made and hashed again at
 * every step. Each object is written as JSON once and remembers its id (the values must not change once they have
 * one: a step, a state and a task never do). An id is never given to another JSON; when the bound forgets a JSON,
 * an equal value gets a new id, which can only cost a memo a miss, never a wrong answer.
 */
const idOfObject = new WeakMap<object, number>();
/** About 2 KB a JSON at the bound. */
const idOfJson = new LRUCache<string, number>({ max: 20_000 });
let nextId = 0;

export function contentId(value: object): number {
  return idOf(value, JSON.stringify);
}

/**
 * A history step's id: its states by their own ids (a step's state is the step before's next, and pages are most of
 * a step's JSON), the rest as JSON. A step's state and next are objects, never numbers, so this names one step;
 * the prefix keeps these strings apart from contentId's (JSON never starts with a letter).
 */
export function stepId(step: Step): number {
  return idOf(
    step,
    (s: Step) =>
      `step:${JSON.stringify(s, function (key, value) {
        return this === s && (key === "state" || key === "next") ? contentId(value) : value;
      })}`,
  );
}

function idOf<T extends object>(value: T, json: (value: T) => string): number {
  let id = idOfObject.get(value);
  if (id === undefined) {
    const written = json(value);
    id = idOfJson.get(written);
    if (id === undefined) {
      id = nextId++;
      idOfJson.set(written, id);
    }
    idOfObject.set(value, id);
  }
  return id;
}
