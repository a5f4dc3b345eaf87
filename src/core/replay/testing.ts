import type { TrajectorySource, Transition } from "../types";

/** A small hand-checked buffer for tests: for each query below, the right first neighbour is obvious. */
function transition(
  id: string,
  domain: string,
  source: TrajectorySource,
  instruction: string,
  state: string,
  action: string,
  next: string,
  taskId = `${domain}:train:${id}`,
): Transition {
  return {
    id,
    domain,
    source,
    instruction,
    taskId,
    state: { text: state },
    action,
    next: { text: next },
    reward: 0,
    done: false,
    success: false,
    valid: true,
  };
}

export const HAND_CHECKED: Transition[] = [
  transition(
    "h-fridge",
    "household",
    "offline",
    "put a cool apple in the fridge",
    "You arrive at fridge 1. The fridge 1 is closed.",
    "open fridge 1",
    "You open the fridge 1. The fridge 1 is open. In it, you see a lettuce 1.",
  ),
  transition(
    "h-cabinet",
    "household",
    "offline",
    "put a clean plate in cabinet",
    "You arrive at cabinet 2. The cabinet 2 is closed.",
    "open cabinet 2",
    "You open the cabinet 2. The cabinet 2 is open. In it, you see nothing.",
  ),
  transition(
    "h-apple",
    "household",
    "synthetic",
    "put a cool apple in the fridge",
    "You arrive at countertop 1. On the countertop 1, you see a apple 1, and a knife 1.",
    "take apple 1 from countertop 1",
    "You pick up the apple 1 from the countertop 1.",
  ),
  transition(
    "h-microwave",
    "household",
    "real",
    "put a hot bread on diningtable",
    "You arrive at microwave 1. The microwave 1 is closed. You are holding bread 1.",
    "heat bread 1 with microwave 1",
    "You heat the bread 1 using the microwave 1.",
  ),
  transition(
    "s-results",
    "shop",
    "offline",
    "i need a rosewood matte lipstick under 30 dollars",
    "Back to Search [SEP] Page 1 [SEP] B01 [SEP] Lumera Rosewood Matte Lipstick [SEP] $14.79 [SEP] B02 [SEP] Aveline Coral Lipstick [SEP] $8.49",
    "click[b01]",
    "Back to Search [SEP] < Prev [SEP] color [SEP] rosewood [SEP] coral [SEP] Lumera Rosewood Matte Lipstick [SEP] Price: $14.79 [SEP] Buy Now",
  ),
  transition(
    "s-buy",
    "shop",
    "offline",
    "i need a rosewood matte lipstick under 30 dollars",
    "Back to Search [SEP] < Prev [SEP] color [SEP] rosewood [SEP] Lumera Rosewood Matte Lipstick [SEP] Price: $14.79 [SEP] Buy Now",
    "click[buy now]",
    "Thank you for shopping with us!",
  ),
  transition(
    "s-search",
    "shop",
    "synthetic",
    "i want blue running shoes in size 9",
    "WebShop [SEP] Instruction: [SEP] i want blue running shoes in size 9 [SEP] Search",
    "search[blue running shoes size 9]",
    "Back to Search [SEP] Page 1 [SEP] B07 [SEP] Stride Blue Running Shoes [SEP] $45.00",
  ),
  transition(
    "s-shoes",
    "shop",
    "synthetic",
    "i want blue running shoes in size 9",
    "Back to Search [SEP] < Prev [SEP] size [SEP] 8 [SEP] 9 [SEP] 10 [SEP] Stride Blue Running Shoes [SEP] Price: $45.00 [SEP] Buy Now",
    "click[9]",
    "Back to Search [SEP] < Prev [SEP] size [SEP] 8 [SEP] 9 [SEP] 10 [SEP] Stride Blue Running Shoes [SEP] Price: $45.00 [SEP] Buy Now",
  ),
];

/** Queries close to one transition of HAND_CHECKED each (a different object number, a different price...). */
export const HAND_QUERIES = [
  {
    expected: "h-fridge",
    query: {
      domain: "household",
      instruction: "put a cool tomato in the fridge",
      state: "You arrive at fridge 1. The fridge 1 is closed.",
      action: "open fridge 1",
    },
  },
  {
    expected: "h-apple",
    query: {
      domain: "household",
      instruction: "put a cool apple in the fridge",
      state: "You arrive at countertop 2. On the countertop 2, you see a apple 2, and a spoon 1.",
      action: "take apple 2 from countertop 2",
    },
  },
  {
    expected: "s-buy",
    query: {
      domain: "shop",
      instruction: "i need a rosewood matte lipstick under 20 dollars",
      state:
        "Back to Search [SEP] < Prev [SEP] color [SEP] rosewood [SEP] Lumera Rosewood Matte Lipstick [SEP] Price: $12.99 [SEP] Buy Now",
      action: "click[buy now]",
    },
  },
  {
    expected: "s-search",
    query: {
      domain: "shop",
      instruction: "i want blue running shoes in size 10",
      state: "WebShop [SEP] Instruction: [SEP] i want blue running shoes in size 10 [SEP] Search",
      action: "search[blue running shoes size 10]",
    },
  },
] as const;
