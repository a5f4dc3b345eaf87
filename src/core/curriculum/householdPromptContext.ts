/**
 * What a model must know to write valid household goals for the seed's kind of room: the task types, the object
 * classes and receptacles such a room has, which appliance each treatment needs, which objects each treatment
 * works on, and the lamps. These are the household validator's rules, written out.
 */
import { type HouseholdGoal, ROOM_OBJECTS, TASK_TYPES } from "../envs/household";
import {
  APPLIANCE,
  RECEPTACLE_CLASSES,
  ROOM_LAMPS,
  roomHasReceptacleClass,
  TREATABLE,
} from "../envs/household/catalog";
import type { DomainPromptContext } from "./openaiPrompt";

const TYPE_MEANINGS: Record<(typeof TASK_TYPES)[number], string> = {
  pick_and_place_simple: "put one object in/on the target receptacle",
  look_at_obj_in_light: "hold the object and turn on the lamp (target = a lamp class)",
  pick_clean_then_place_in_recep: "clean the object in the sinkbasin, then put it in/on the target",
  pick_heat_then_place_in_recep: "heat the object with the microwave, then put it in/on the target",
  pick_cool_then_place_in_recep: "cool the object with the fridge, then put it in/on the target",
  pick_two_obj_and_place: "put two objects of the class in/on the target",
};

const GOAL_FORMAT = [
  "A household goal is a JSON object:",
  '{"type": string, "object": string, "target": string, "room": {"seed": integer, "kind": string}}',
  "The room is rebuilt from (seed, kind) and the goal; the instruction the agent reads is written from the goal,",
  'e.g. "heat some egg and put it on countertop."',
].join("\n");

export function householdPromptContext(goal: HouseholdGoal): DomainPromptContext {
  const kind = goal.room.kind;
  const objects = ROOM_OBJECTS[kind];
  const receptacles = Object.keys(RECEPTACLE_CLASSES).filter((cls) => roomHasReceptacleClass(kind, cls));
  const lamps = ROOM_LAMPS[kind].map((lamp) => lamp.cls);
  const types = TASK_TYPES.map((type) => {
    const appliance = APPLIANCE[type];
    const possible =
      type === "look_at_obj_in_light"
        ? lamps.length > 0
        : !appliance || roomHasReceptacleClass(kind, appliance);
    const treatable = TREATABLE[type];
    const works = treatable
      ? `; objects: ${Object.keys(objects)
          .filter((o) => treatable.has(o))
          .join(", ")}`
      : "";
    return `- ${type}: ${TYPE_MEANINGS[type]}${possible ? works : ` (impossible in a ${kind})`}`;
  });
  const constraints = [
    `- room.kind: keep "${kind}".`,
    `- room.seed: keep ${goal.room.seed} for the same room, or any other even integer below 4294967295 for another`,
    "  room of the same kind (odd seeds are reserved).",
    "- type: one of the task types below that is possible in this kind of room.",
    `- object: an object class of a ${kind} (usual places in brackets):`,
    ...Object.entries(objects).map(([o, homes]) => `    ${o} [${homes.join(", ")}]`),
    `- target: a receptacle class of a ${kind}: ${receptacles.join(", ")}; preferably one of the object's usual`,
    "  places, never the appliance of the task type itself.",
    `  For look_at_obj_in_light the target is a lamp class instead: ${lamps.join(", ") || `a ${kind} has none`}.`,
    "- Change the goal: another target, another object, another task type, or the same task in another room.",
    "  Every goal must differ from the seed goal and from the others.",
    "",
    "## Task types",
    ...types,
  ].join("\n");
  return { goalFormat: GOAL_FORMAT, constraints };
}
