/**
 * The vocabulary of the household world, in ALFWorld's words: which receptacles each kind of room has, which
 * objects live where, which objects each task type can use. Rooms, goals and validation all read this one table
 * so that a goal the validator accepts is always a room the generator can build.
 */

export const ROOM_KINDS = ["kitchen", "living room", "bedroom", "bathroom"] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

export const TASK_TYPES = [
  "pick_and_place_simple",
  "look_at_obj_in_light",
  "pick_clean_then_place_in_recep",
  "pick_heat_then_place_in_recep",
  "pick_cool_then_place_in_recep",
  "pick_two_obj_and_place",
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const LAMP_CLASSES = ["desklamp", "floorlamp"] as const;
export type LampClass = (typeof LAMP_CLASSES)[number];

/** Containers you put things "in" (and that are opened when openable); everything else is a surface ("on"). */
export interface ReceptacleClassInfo {
  openable: boolean;
  preposition: "in" | "on";
}

export const RECEPTACLE_CLASSES: Record<string, ReceptacleClassInfo> = {
  armchair: { openable: false, preposition: "on" },
  bathtubbasin: { openable: false, preposition: "in" },
  bed: { openable: false, preposition: "on" },
  cabinet: { openable: true, preposition: "in" },
  coffeemachine: { openable: false, preposition: "on" },
  coffeetable: { openable: false, preposition: "on" },
  countertop: { openable: false, preposition: "on" },
  desk: { openable: false, preposition: "on" },
  diningtable: { openable: false, preposition: "on" },
  drawer: { openable: true, preposition: "in" },
  dresser: { openable: false, preposition: "on" },
  fridge: { openable: true, preposition: "in" },
  garbagecan: { openable: false, preposition: "in" },
  handtowelholder: { openable: false, preposition: "on" },
  laundryhamper: { openable: false, preposition: "in" },
  microwave: { openable: true, preposition: "in" },
  ottoman: { openable: false, preposition: "on" },
  safe: { openable: true, preposition: "in" },
  shelf: { openable: false, preposition: "on" },
  sidetable: { openable: false, preposition: "on" },
  sinkbasin: { openable: false, preposition: "in" },
  sofa: { openable: false, preposition: "on" },
  stoveburner: { openable: false, preposition: "on" },
  toaster: { openable: false, preposition: "in" },
  toilet: { openable: false, preposition: "on" },
  toiletpaperhanger: { openable: false, preposition: "on" },
  towelholder: { openable: false, preposition: "on" },
  tvstand: { openable: false, preposition: "on" },
};

/** How many of each receptacle class a room of a kind has: drawn uniformly in [min, max]. */
export interface ReceptacleCount {
  cls: string;
  min: number;
  max: number;
}

/**
 * Sizes follow ALFWorld's scenes (kitchens are the largest, 20-35 locations). The counts matter for the science:
 * a small room lets a random policy stumble onto success, which would make the real environment too easy.
 */
export const ROOM_RECEPTACLES: Record<RoomKind, readonly ReceptacleCount[]> = {
  kitchen: [
    { cls: "cabinet", min: 4, max: 10 },
    { cls: "coffeemachine", min: 1, max: 1 },
    { cls: "countertop", min: 1, max: 3 },
    { cls: "diningtable", min: 0, max: 1 },
    { cls: "drawer", min: 2, max: 6 },
    { cls: "fridge", min: 1, max: 1 },
    { cls: "garbagecan", min: 1, max: 1 },
    { cls: "microwave", min: 1, max: 1 },
    { cls: "shelf", min: 0, max: 3 },
    { cls: "sinkbasin", min: 1, max: 1 },
    { cls: "stoveburner", min: 2, max: 4 },
    { cls: "toaster", min: 0, max: 1 },
  ],
  "living room": [
    { cls: "armchair", min: 1, max: 2 },
    { cls: "cabinet", min: 0, max: 4 },
    { cls: "coffeetable", min: 1, max: 1 },
    { cls: "diningtable", min: 0, max: 1 },
    { cls: "drawer", min: 2, max: 6 },
    { cls: "dresser", min: 0, max: 1 },
    { cls: "garbagecan", min: 1, max: 1 },
    { cls: "ottoman", min: 0, max: 1 },
    { cls: "shelf", min: 2, max: 6 },
    { cls: "sidetable", min: 1, max: 2 },
    { cls: "sofa", min: 1, max: 1 },
    { cls: "tvstand", min: 0, max: 1 },
  ],
  bedroom: [
    { cls: "armchair", min: 0, max: 1 },
    { cls: "bed", min: 1, max: 1 },
    { cls: "desk", min: 0, max: 2 },
    { cls: "drawer", min: 3, max: 8 },
    { cls: "dresser", min: 0, max: 1 },
    { cls: "garbagecan", min: 1, max: 1 },
    { cls: "laundryhamper", min: 0, max: 1 },
    { cls: "safe", min: 0, max: 1 },
    { cls: "shelf", min: 2, max: 6 },
    { cls: "sidetable", min: 1, max: 2 },
  ],
  bathroom: [
    { cls: "bathtubbasin", min: 0, max: 1 },
    { cls: "cabinet", min: 2, max: 4 },
    { cls: "countertop", min: 1, max: 1 },
    { cls: "drawer", min: 2, max: 6 },
    { cls: "garbagecan", min: 1, max: 1 },
    { cls: "handtowelholder", min: 0, max: 2 },
    { cls: "shelf", min: 0, max: 3 },
    { cls: "sinkbasin", min: 1, max: 2 },
    { cls: "toilet", min: 1, max: 1 },
    { cls: "toiletpaperhanger", min: 1, max: 1 },
    { cls: "towelholder", min: 0, max: 1 },
  ],
};

/** Where each object class plausibly starts, per kind of room (the first-choice receptacles of ALFRED scenes). */
export const ROOM_OBJECTS: Record<RoomKind, Readonly<Record<string, readonly string[]>>> = {
  kitchen: {
    apple: ["countertop", "diningtable", "fridge", "garbagecan", "microwave", "sinkbasin"],
    bowl: ["cabinet", "countertop", "diningtable", "fridge", "microwave", "shelf", "sinkbasin"],
    bread: ["cabinet", "countertop", "diningtable", "fridge", "microwave"],
    butterknife: ["countertop", "diningtable", "drawer", "sinkbasin"],
    cup: ["cabinet", "countertop", "diningtable", "fridge", "microwave", "shelf", "sinkbasin"],
    dishsponge: ["cabinet", "countertop", "diningtable", "drawer", "sinkbasin"],
    egg: ["countertop", "diningtable", "fridge", "garbagecan", "microwave", "sinkbasin"],
    fork: ["countertop", "diningtable", "drawer", "sinkbasin"],
    kettle: ["cabinet", "countertop", "shelf", "stoveburner"],
    knife: ["countertop", "diningtable", "drawer", "sinkbasin"],
    ladle: ["countertop", "diningtable", "drawer", "sinkbasin"],
    lettuce: ["countertop", "diningtable", "fridge", "sinkbasin"],
    mug: [
      "cabinet",
      "coffeemachine",
      "countertop",
      "diningtable",
      "fridge",
      "microwave",
      "shelf",
      "sinkbasin",
    ],
    pan: ["cabinet", "countertop", "diningtable", "sinkbasin", "stoveburner"],
    peppershaker: ["cabinet", "countertop", "diningtable", "drawer", "shelf"],
    plate: ["cabinet", "countertop", "diningtable", "fridge", "shelf", "sinkbasin"],
    pot: ["cabinet", "countertop", "diningtable", "fridge", "sinkbasin", "stoveburner"],
    potato: ["countertop", "diningtable", "fridge", "garbagecan", "microwave", "sinkbasin"],
    saltshaker: ["cabinet", "countertop", "diningtable", "drawer", "shelf"],
    soapbottle: ["cabinet", "countertop", "shelf"],
    spatula: ["countertop", "diningtable", "drawer", "sinkbasin"],
    spoon: ["countertop", "diningtable", "drawer", "sinkbasin"],
    tomato: ["countertop", "diningtable", "fridge", "garbagecan", "microwave", "sinkbasin"],
    winebottle: ["cabinet", "countertop", "diningtable", "fridge", "shelf"],
  },
  "living room": {
    book: ["coffeetable", "diningtable", "drawer", "dresser", "shelf", "sidetable", "sofa"],
    bowl: ["coffeetable", "diningtable", "dresser", "shelf", "sidetable"],
    box: ["armchair", "coffeetable", "diningtable", "dresser", "shelf", "sidetable", "sofa"],
    cellphone: ["armchair", "coffeetable", "diningtable", "drawer", "dresser", "sidetable", "sofa"],
    creditcard: ["armchair", "coffeetable", "diningtable", "drawer", "dresser", "shelf", "sidetable", "sofa"],
    keychain: ["armchair", "coffeetable", "diningtable", "drawer", "dresser", "shelf", "sidetable", "sofa"],
    laptop: ["armchair", "coffeetable", "diningtable", "dresser", "sofa"],
    newspaper: ["armchair", "coffeetable", "diningtable", "garbagecan", "ottoman", "sidetable", "sofa"],
    pillow: ["armchair", "ottoman", "sofa"],
    remotecontrol: ["armchair", "coffeetable", "drawer", "dresser", "sidetable", "sofa", "tvstand"],
    statue: ["cabinet", "coffeetable", "diningtable", "dresser", "shelf", "sidetable", "tvstand"],
    tissuebox: ["coffeetable", "dresser", "shelf", "sidetable"],
    vase: ["cabinet", "coffeetable", "diningtable", "dresser", "shelf", "sidetable", "tvstand"],
    watch: ["coffeetable", "drawer", "dresser", "shelf", "sidetable"],
  },
  bedroom: {
    alarmclock: ["desk", "dresser", "shelf", "sidetable"],
    book: ["bed", "desk", "drawer", "dresser", "shelf", "sidetable"],
    bowl: ["desk", "dresser", "shelf", "sidetable"],
    cd: ["desk", "drawer", "dresser", "garbagecan", "safe", "shelf", "sidetable"],
    cellphone: ["bed", "desk", "drawer", "dresser", "sidetable"],
    creditcard: ["desk", "drawer", "dresser", "shelf", "sidetable"],
    keychain: ["desk", "drawer", "dresser", "safe", "shelf", "sidetable"],
    laptop: ["bed", "desk", "dresser"],
    mug: ["desk", "dresser", "shelf", "sidetable"],
    pen: ["desk", "drawer", "dresser", "garbagecan", "shelf", "sidetable"],
    pencil: ["desk", "drawer", "dresser", "garbagecan", "shelf", "sidetable"],
    pillow: ["armchair", "bed"],
    watch: ["desk", "drawer", "dresser", "safe", "shelf", "sidetable"],
  },
  bathroom: {
    candle: ["cabinet", "countertop", "drawer", "shelf", "toilet"],
    cloth: ["bathtubbasin", "cabinet", "countertop", "drawer", "shelf", "sinkbasin", "toilet"],
    dishsponge: ["cabinet", "countertop", "drawer", "shelf", "toilet"],
    handtowel: ["countertop", "handtowelholder"],
    soapbar: ["bathtubbasin", "cabinet", "countertop", "garbagecan", "shelf", "sinkbasin", "toilet"],
    soapbottle: ["bathtubbasin", "cabinet", "countertop", "garbagecan", "shelf", "toilet"],
    spraybottle: ["cabinet", "countertop", "garbagecan", "shelf", "toilet"],
    tissuebox: ["countertop", "shelf", "toilet"],
    toiletpaper: ["cabinet", "countertop", "drawer", "garbagecan", "shelf", "toilet", "toiletpaperhanger"],
    towel: ["towelholder"],
  },
};

/**
 * Lamps are fixtures, not receptacles: a desklamp stands on a piece of furniture and a floorlamp stands next to
 * one, and "use" works where the lamp is. `chance` is how often a room of the kind has one when no goal needs it.
 */
export interface LampSpec {
  cls: LampClass;
  chance: number;
  hosts: readonly string[];
}

export const ROOM_LAMPS: Record<RoomKind, readonly LampSpec[]> = {
  kitchen: [],
  "living room": [
    { cls: "desklamp", chance: 0.5, hosts: ["sidetable", "dresser"] },
    { cls: "floorlamp", chance: 0.7, hosts: ["sofa", "armchair", "sidetable"] },
  ],
  bedroom: [
    { cls: "desklamp", chance: 0.9, hosts: ["desk", "sidetable", "dresser"] },
    { cls: "floorlamp", chance: 0.3, hosts: ["bed", "armchair", "desk"] },
  ],
  bathroom: [],
};

/** The appliance each treatment task needs ("heat ... with microwave 1"). */
export const APPLIANCE: Partial<Record<TaskType, "sinkbasin" | "microwave" | "fridge">> = {
  pick_clean_then_place_in_recep: "sinkbasin",
  pick_heat_then_place_in_recep: "microwave",
  pick_cool_then_place_in_recep: "fridge",
};

/** The object classes ALFWorld uses for each treatment (things you would plausibly wash, warm or chill). */
export const TREATABLE: Partial<Record<TaskType, ReadonlySet<string>>> = {
  pick_clean_then_place_in_recep: new Set([
    "apple",
    "bowl",
    "butterknife",
    "cloth",
    "cup",
    "dishsponge",
    "egg",
    "fork",
    "knife",
    "ladle",
    "lettuce",
    "mug",
    "pan",
    "plate",
    "pot",
    "potato",
    "soapbar",
    "spatula",
    "spoon",
    "tomato",
  ]),
  pick_heat_then_place_in_recep: new Set([
    "apple",
    "bread",
    "cup",
    "egg",
    "mug",
    "plate",
    "potato",
    "tomato",
  ]),
  pick_cool_then_place_in_recep: new Set([
    "apple",
    "bowl",
    "bread",
    "cup",
    "egg",
    "lettuce",
    "mug",
    "pan",
    "plate",
    "pot",
    "potato",
    "tomato",
    "winebottle",
  ]),
};

export function roomHasReceptacleClass(kind: RoomKind, cls: string): boolean {
  return ROOM_RECEPTACLES[kind].some((count) => count.cls === cls);
}

export function roomLampSpec(kind: RoomKind, cls: string): LampSpec | undefined {
  return ROOM_LAMPS[kind].find((lamp) => lamp.cls === cls);
}

export function isLampClass(cls: string): cls is LampClass {
  return (LAMP_CLASSES as readonly string[]).includes(cls);
}
