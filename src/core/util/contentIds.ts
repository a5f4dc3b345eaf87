import { LRUCache } from "lru-cache";

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
  let id = idOfObject.get(value);
  if (id === undefined) {
    const json = JSON.stringify(value);
    id = idOfJson.get(json);
    if (id === undefined) {
      id = nextId++;
      idOfJson.set(json, id);
    }
    idOfObject.set(value, id);
  }
  return id;
}
