import { Rng } from "@/core/util/random";

/**
 * A small shop-admin web site and logged sessions on it, generated deterministically from a seed: the sample
 * of a domain with no real environment here (README "Importing trajectories"). `npm run sample:web` writes it
 * to samples/web-admin.jsonl in the project's import format; tests/samples/webAdmin.test.ts regenerates it and
 * checks the committed file is identical and imports cleanly.
 *
 * The site: a dashboard, a catalog of products (filters by category, search by name, sort by price, five rows
 * a page), a product edit form (price, quantity, status, Save), the orders list (status filter, search by
 * customer, pages), the customers list (sort by orders, pages) and a reviews report (status filter). Every page
 * carries the same menu. Tasks ask for a count, a price, a name, or an edit; an answer is `stop[answer]`, an
 * edit ends with `click[Save]`.
 *
 * Actions: `click[X]`, `select[Field: value]`, `type[Field][text]`, `stop[answer]`. In `admissible_actions` the
 * free-text ones appear as templates: `type[Field]` (any text) and `stop[answer]`. An action that is not
 * admissible leaves the page as it was and is marked `valid: false`.
 *
 * Sessions: one expert session per task, then noisy ones (the expert with probability ε of a random action, of
 * a wrong answer or a wrong value) at ε = 0.3 and ε = 0.7. Sessions stop after MAX_STEPS without finishing.
 */

export const WEB_ADMIN_DOMAIN = "web-admin";
export const DEFAULT_SEED = "web-admin-v1";
export const DEFAULT_COUNT = 300;
const MAX_STEPS = 10;
const PAGE_SIZE = 5;

// ---------------------------------------------------------------------------------------------- the world

const CATEGORIES = ["Kitchen", "Office", "Garden", "Sports", "Toys", "Bath"] as const;
const PRODUCT_NAMES: Record<(typeof CATEGORIES)[number], string[]> = {
  Kitchen: ["Blue Ceramic Mug", "Chef Knife 8in", "Bamboo Cutting Board", "Espresso Tamper", "Glass Teapot"],
  Office: [
    "Walnut Desk Organizer",
    "Gel Pen Set",
    "Ergonomic Mouse Pad",
    "Spiral Notebook A5",
    "Desk Lamp LED",
  ],
  Garden: ["Pruning Shears", "Copper Watering Can", "Seed Starter Tray", "Garden Kneeler", "Hose Nozzle"],
  Sports: ["Yoga Mat Pro", "Steel Water Bottle", "Jump Rope Speed", "Tennis Balls 3pk", "Resistance Bands"],
  Toys: ["Wooden Puzzle Map", "Plush Fox", "Stacking Rings", "Kite Rainbow", "Marble Run Kit"],
  Bath: ["Linen Towel Set", "Cedar Bath Mat", "Soap Dish Stone", "Shower Caddy", "Cotton Bathrobe"],
};
const FIRST = ["Sarah", "James", "Priya", "Tom", "Elena", "Marcus", "Aiko", "Noah", "Fatima", "Lucas"];
const LAST = ["Miller", "Chen", "Okafor", "Novak", "Garcia", "Brown", "Sato", "Haddad", "Kim", "Rossi"];
const ORDER_STATUSES = ["Pending", "Processing", "Complete", "Canceled"] as const;
const REVIEW_STATUSES = ["Pending", "Approved", "Rejected"] as const;
type ProductStatus = "Enabled" | "Disabled";

interface Product {
  sku: string;
  name: string;
  category: string;
  price: number; // cents
  qty: number;
  status: ProductStatus;
}
interface Order {
  id: string;
  customer: string;
  date: string;
  total: number; // cents
  status: (typeof ORDER_STATUSES)[number];
}
interface Review {
  product: string;
  rating: number;
  status: (typeof REVIEW_STATUSES)[number];
}
interface World {
  products: Product[];
  customers: { name: string; email: string; orders: number }[];
  orders: Order[];
  reviews: Review[];
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function makeWorld(rng: Rng): World {
  const products: Product[] = [];
  for (const category of CATEGORIES) {
    for (const name of PRODUCT_NAMES[category]) {
      products.push({
        sku: `SKU-${1001 + products.length}`,
        name,
        category,
        price: rng.int(3, 120) * 100 + rng.pick([0, 49, 99]),
        qty: rng.chance(0.15) ? 0 : rng.int(1, 60),
        status: rng.chance(0.2) ? "Disabled" : "Enabled",
      });
    }
  }
  const names = rng.sample(
    FIRST.flatMap((f) => LAST.map((l) => `${f} ${l}`)),
    16,
  );
  const orders: Order[] = [];
  // Customers order unevenly, with one clear top customer, so "the most orders" has one answer.
  const weights = names.map((_, i) => (i === 0 ? 9 : rng.int(0, 6)));
  names.forEach((customer, i) => {
    for (let k = 0; k < (weights[i] as number); k++) {
      orders.push({
        id: "",
        customer,
        date: `2026-${String(rng.int(1, 9)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`,
        total: rng.int(8, 400) * 100 + rng.int(0, 99),
        status: rng.pick(ORDER_STATUSES),
      });
    }
  });
  const sorted = rng.shuffle(orders).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  sorted.forEach((o, i) => {
    o.id = `#${String(100200 + sorted.length - i)}`;
  });
  const customers = names
    .map((name) => ({
      name,
      email: `${name.toLowerCase().replace(" ", ".")}@example.com`,
      orders: orders.filter((o) => o.customer === name).length,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const reviews: Review[] = Array.from({ length: 38 }, () => ({
    product: rng.pick(products).name,
    rating: rng.int(1, 5),
    status: rng.pick([...REVIEW_STATUSES, "Approved", "Approved"] as const),
  }));
  return { products, customers, orders: sorted, reviews };
}

// ---------------------------------------------------------------------------------------------- the views

type View =
  | { page: "dashboard" }
  | { page: "reports" }
  | { page: "reviews"; status: string }
  | { page: "catalog"; category: string; search: string; sortByPrice: boolean; pageNo: number }
  | { page: "edit"; sku: string; price: number; qty: number; status: ProductStatus; saved: boolean }
  | { page: "orders"; status: string; search: string; pageNo: number }
  | { page: "customers"; byOrders: boolean; pageNo: number };

const MENU = ["Dashboard", "Catalog", "Orders", "Customers", "Reports"] as const;
const CATALOG: View = { page: "catalog", category: "Any", search: "", sortByPrice: false, pageNo: 1 };
const ORDERS: View = { page: "orders", status: "Any", search: "", pageNo: 1 };
const CUSTOMERS: View = { page: "customers", byOrders: false, pageNo: 1 };

function catalogRows(world: World, v: Extract<View, { page: "catalog" }>): Product[] {
  const rows = world.products.filter(
    (p) =>
      (v.category === "Any" || p.category === v.category) &&
      (v.search === "" || p.name.toLowerCase().includes(v.search.toLowerCase())),
  );
  return v.sortByPrice ? rows.slice().sort((a, b) => a.price - b.price || (a.sku < b.sku ? -1 : 1)) : rows;
}

function orderRows(world: World, v: Extract<View, { page: "orders" }>): Order[] {
  return world.orders.filter(
    (o) =>
      (v.status === "Any" || o.status === v.status) &&
      (v.search === "" || o.customer.toLowerCase().includes(v.search.toLowerCase())),
  );
}

function customerRows(world: World, v: Extract<View, { page: "customers" }>) {
  return v.byOrders
    ? world.customers.slice().sort((a, b) => b.orders - a.orders || (a.name < b.name ? -1 : 1))
    : world.customers;
}

function reviewRows(world: World, status: string): Review[] {
  return world.reviews.filter((r) => status === "Any" || r.status === status);
}

const pageOf = <T>(rows: T[], pageNo: number) => rows.slice((pageNo - 1) * PAGE_SIZE, pageNo * PAGE_SIZE);
const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE_SIZE));

function product(world: World, sku: string): Product {
  return world.products.find((p) => p.sku === sku) as Product;
}

function render(world: World, v: View): string {
  const menu = `[menu] ${MENU.join(" | ")}`;
  switch (v.page) {
    case "dashboard":
      return [
        "[Tab] Web Admin | Dashboard",
        menu,
        `[text] Lifetime sales: ${money(world.orders.filter((o) => o.status === "Complete").reduce((s, o) => s + o.total, 0))}`,
        `[text] Orders: ${world.orders.length} | Customers: ${world.customers.length} | Products: ${world.products.length}`,
      ].join("\n");
    case "reports":
      return ["[Page] Reports", menu, "[link] Product Reviews", "[link] Sales (coming soon)"].join("\n");
    case "reviews": {
      const rows = reviewRows(world, v.status);
      return [
        "[Page] Reports > Product Reviews",
        menu,
        `[filter] Status: ${v.status}`,
        `[table] ${rows.length} records found`,
        ...rows.slice(0, 3).map((r) => `[row] ${r.product} | ${r.rating}/5 | ${r.status}`),
      ].join("\n");
    }
    case "catalog": {
      const rows = catalogRows(world, v);
      return [
        `[Page] Catalog > Products (page ${v.pageNo} of ${pages(rows.length)})`,
        menu,
        `[filter] Category: ${v.category}`,
        `[textbox] Search by name: ${v.search}`,
        `[button] Sort by Price${v.sortByPrice ? " (on)" : ""}`,
        `[table] ${rows.length} records found`,
        ...pageOf(rows, v.pageNo).map(
          (p) => `[row] ${p.sku} | ${p.name} | ${money(p.price)} | qty ${p.qty} | ${p.status}`,
        ),
      ].join("\n");
    }
    case "edit": {
      const p = product(world, v.sku);
      return [
        `[Page] Edit Product: ${p.name} (${p.sku})`,
        menu,
        ...(v.saved ? ["[message] You saved the product."] : []),
        `[textbox] Price: ${(v.price / 100).toFixed(2)}`,
        `[textbox] Quantity: ${v.qty}`,
        `[select] Status: ${v.status}`,
        "[button] Save",
        "[link] Back to Catalog",
      ].join("\n");
    }
    case "orders": {
      const rows = orderRows(world, v);
      return [
        `[Page] Sales > Orders (page ${v.pageNo} of ${pages(rows.length)})`,
        menu,
        `[filter] Status: ${v.status}`,
        `[textbox] Search by customer: ${v.search}`,
        `[table] ${rows.length} records found`,
        ...pageOf(rows, v.pageNo).map(
          (o) => `[row] ${o.id} | ${o.customer} | ${o.date} | ${money(o.total)} | ${o.status}`,
        ),
      ].join("\n");
    }
    case "customers": {
      const rows = customerRows(world, v);
      return [
        `[Page] Customers (page ${v.pageNo} of ${pages(rows.length)})`,
        menu,
        `[button] Sort by Orders${v.byOrders ? " (on)" : ""}`,
        ...pageOf(rows, v.pageNo).map((c) => `[row] ${c.name} | ${c.email} | ${c.orders} orders`),
      ].join("\n");
    }
  }
}

function paging(rows: number, pageNo: number): string[] {
  return [
    ...(pageNo < pages(rows) ? ["click[Next page]"] : []),
    ...(pageNo > 1 ? ["click[Previous page]"] : []),
  ];
}

/** What the page offers; `type[Field]` and `stop[answer]` are templates for free text. */
function admissible(world: World, v: View): string[] {
  const menu = MENU.map((m) => `click[${m}]`);
  const own = ((): string[] => {
    switch (v.page) {
      case "dashboard":
        return [];
      case "reports":
        return ["click[Product Reviews]"];
      case "reviews":
        return ["Any", ...REVIEW_STATUSES].map((s) => `select[Status: ${s}]`);
      case "catalog": {
        const rows = catalogRows(world, v);
        return [
          ...["Any", ...CATEGORIES].map((c) => `select[Category: ${c}]`),
          "type[Search by name]",
          "click[Sort by Price]",
          ...paging(rows.length, v.pageNo),
          ...pageOf(rows, v.pageNo).map((p) => `click[${p.sku}]`),
        ];
      }
      case "edit":
        return [
          "type[Price]",
          "type[Quantity]",
          "select[Status: Enabled]",
          "select[Status: Disabled]",
          "click[Save]",
          "click[Back to Catalog]",
        ];
      case "orders":
        return [
          ...["Any", ...ORDER_STATUSES].map((s) => `select[Status: ${s}]`),
          "type[Search by customer]",
          ...paging(orderRows(world, v).length, v.pageNo),
        ];
      case "customers":
        return ["click[Sort by Orders]", ...paging(customerRows(world, v).length, v.pageNo)];
    }
  })();
  return [...menu, ...own, "stop[answer]"];
}

function isAdmissible(world: World, v: View, action: string): boolean {
  const typed = action.match(/^type\[([^\]]+)\]\[.*\]$/s);
  if (typed) return admissible(world, v).includes(`type[${typed[1]}]`);
  if (/^stop\[.*\]$/s.test(action)) return true;
  return admissible(world, v).includes(action);
}

/** The page after an admissible action (stop and an edit task's Save are handled by the episode). */
function transition(world: World, v: View, action: string): View {
  const arg = (re: RegExp) => action.match(re)?.[1] ?? "";
  const menu = arg(/^click\[(Dashboard|Catalog|Orders|Customers|Reports)\]$/);
  if (menu === "Dashboard") return { page: "dashboard" };
  if (menu === "Catalog" || action === "click[Back to Catalog]") return CATALOG;
  if (menu === "Orders") return ORDERS;
  if (menu === "Customers") return CUSTOMERS;
  if (menu === "Reports") return { page: "reports" };
  const next = action === "click[Next page]" ? 1 : action === "click[Previous page]" ? -1 : 0;
  switch (v.page) {
    case "reports":
      return { page: "reviews", status: "Any" };
    case "reviews":
      return { ...v, status: arg(/^select\[Status: (\w+)\]$/) };
    case "catalog": {
      if (next) return { ...v, pageNo: v.pageNo + next };
      if (action.startsWith("select[Category: "))
        return { ...v, category: arg(/^select\[Category: (\w+)\]$/), pageNo: 1 };
      if (action.startsWith("type[Search by name]"))
        return { ...v, search: arg(/^type\[Search by name\]\[(.*)\]$/s), pageNo: 1 };
      if (action === "click[Sort by Price]") return { ...v, sortByPrice: !v.sortByPrice, pageNo: 1 };
      const p = product(world, arg(/^click\[(SKU-\d+)\]$/));
      return { page: "edit", sku: p.sku, price: p.price, qty: p.qty, status: p.status, saved: false };
    }
    case "edit": {
      if (action === "click[Save]") return { ...v, saved: true };
      if (action.startsWith("select[Status: "))
        return { ...v, status: arg(/^select\[Status: (\w+)\]$/) as ProductStatus, saved: false };
      const value = arg(/^type\[(?:Price|Quantity)\]\[(.*)\]$/s);
      const number = Number(value.replace(/^\$/, ""));
      const ok = value.trim() !== "" && Number.isFinite(number) && number >= 0;
      if (action.startsWith("type[Price]"))
        return ok ? { ...v, price: Math.round(number * 100), saved: false } : v;
      return ok ? { ...v, qty: Math.round(number), saved: false } : v;
    }
    case "orders": {
      if (next) return { ...v, pageNo: v.pageNo + next };
      if (action.startsWith("select[Status: "))
        return { ...v, status: arg(/^select\[Status: (\w+)\]$/), pageNo: 1 };
      return { ...v, search: arg(/^type\[Search by customer\]\[(.*)\]$/s), pageNo: 1 };
    }
    case "customers":
      if (next) return { ...v, pageNo: v.pageNo + next };
      return { ...v, byOrders: !v.byOrders, pageNo: 1 };
    default:
      return v;
  }
}

// ---------------------------------------------------------------------------------------------- the tasks

type Goal =
  | { kind: "answer"; answer: string }
  | { kind: "edit"; sku: string; price?: number; qty?: number; status?: ProductStatus };

interface Task {
  id: string;
  instruction: string;
  goal: Goal;
  /** Where the expert goes and what it does there: the next action and why, or undefined at the goal. */
  plan: (v: View) => { action: string; reasoning: string };
}

function navigate(
  target: "catalog" | "orders" | "customers" | "reviews",
  v: View,
): { action: string; reasoning: string } {
  if (target === "reviews") {
    return v.page === "reports"
      ? {
          action: "click[Product Reviews]",
          reasoning: "The product reviews report lists every review with its status.",
        }
      : { action: "click[Reports]", reasoning: "Review counts are kept under Reports, not on this page." };
  }
  if (target === "catalog" && v.page === "edit")
    return {
      action: "click[Back to Catalog]",
      reasoning: "This is not the product I need; back to the catalog.",
    };
  const label = { catalog: "Catalog", orders: "Orders", customers: "Customers" }[target];
  const why = {
    catalog: "Products, their prices and stock are in the catalog.",
    orders: "Orders are listed under Orders, with a status filter and a customer search.",
    customers: "The customers list shows how many orders each customer placed.",
  }[target];
  return { action: `click[${label}]`, reasoning: why };
}

/** Tasks of every family, in a fixed order (the sample's task ids and their order are its contract). */
function makeTasks(world: World, rng: Rng): Task[] {
  return [
    ...reportTasks(world),
    ...customerTasks(world),
    ...productTasks(world, rng),
    ...cheapestTasks(world),
  ];
}

/** The next action towards a product's edit form, or undefined once it is open. */
function productFinder(world: World) {
  return (p: Product, v: View): { action: string; reasoning: string } | undefined => {
    if (v.page === "edit" && v.sku === p.sku) return undefined;
    if (v.page !== "catalog") return navigate("catalog", v);
    if (pageOf(catalogRows(world, v), v.pageNo).some((r) => r.sku === p.sku))
      return { action: `click[${p.sku}]`, reasoning: `${p.name} is ${p.sku}; open its edit form.` };
    if (v.category !== "Any") return navigate("catalog", { page: "dashboard" });
    return { action: `type[Search by name][${p.name}]`, reasoning: `Search the catalog for ${p.name}.` };
  };
}

/** Answers read from the reviews and orders reports. */
function reportTasks(world: World): Task[] {
  const tasks: Task[] = [];
  const answer = (action: string, reasoning: string) => ({ action: `stop[${action}]`, reasoning });

  for (const [i, status] of REVIEW_STATUSES.entries()) {
    const count = reviewRows(world, status).length;
    for (const [j, phrase] of [
      `How many product reviews are ${status.toLowerCase()}?`,
      `Count the reviews with status ${status} in the reviews report.`,
    ].entries()) {
      tasks.push({
        id: `reviews-${status.toLowerCase()}-${j}`,
        instruction: i === 0 && j === 0 ? "How many reviews are pending moderation?" : phrase,
        goal: { kind: "answer", answer: String(count) },
        plan: (v) => {
          if (v.page !== "reviews") return navigate("reviews", v);
          if (v.status !== status)
            return {
              action: `select[Status: ${status}]`,
              reasoning: `Filter the report to ${status} reviews to count them.`,
            };
          return answer(
            String(count),
            `The filtered report shows ${count} records, so the answer is ${count}.`,
          );
        },
      });
    }
  }
  for (const status of ORDER_STATUSES) {
    const count = world.orders.filter((o) => o.status === status).length;
    tasks.push({
      id: `orders-${status.toLowerCase()}`,
      instruction: `How many orders are ${status === "Canceled" ? "canceled" : `in status ${status}`}?`,
      goal: { kind: "answer", answer: String(count) },
      plan: (v) => {
        if (v.page !== "orders" || v.search !== "") return navigate("orders", v);
        if (v.status !== status)
          return {
            action: `select[Status: ${status}]`,
            reasoning: `The status filter narrows the list to ${status} orders.`,
          };
        return answer(String(count), `${count} records match the filter.`);
      },
    });
  }
  return tasks;
}

/** Answers about customers: the top customer, each customer's orders. */
function customerTasks(world: World): Task[] {
  const tasks: Task[] = [];
  const answer = (action: string, reasoning: string) => ({ action: `stop[${action}]`, reasoning });

  const top = customerRows(world, { ...CUSTOMERS, byOrders: true } as Extract<
    View,
    { page: "customers" }
  >)[0] as World["customers"][number];
  tasks.push({
    id: "customer-most-orders",
    instruction: "Find the customer with the most orders.",
    goal: { kind: "answer", answer: top.name },
    plan: (v) => {
      if (v.page !== "customers") return navigate("customers", v);
      if (!v.byOrders)
        return {
          action: "click[Sort by Orders]",
          reasoning: "Sorting by orders puts the busiest customer first.",
        };
      if (v.pageNo !== 1)
        return {
          action: "click[Previous page]",
          reasoning: "The top of the sorted list is on the first page.",
        };
      return answer(top.name, `${top.name} is first with ${top.orders} orders.`);
    },
  });
  for (const c of world.customers) {
    tasks.push({
      id: `customer-orders-${c.name.toLowerCase().replace(" ", "-")}`,
      instruction: `How many orders has ${c.name} placed?`,
      goal: { kind: "answer", answer: String(c.orders) },
      plan: (v) => {
        if (v.page !== "orders" || v.status !== "Any") return navigate("orders", v);
        if (v.search !== c.name)
          return {
            action: `type[Search by customer][${c.name}]`,
            reasoning: `Search the orders by the customer's name, ${c.name}.`,
          };
        return answer(String(c.orders), `${c.orders} orders are listed for ${c.name}.`);
      },
    });
  }
  return tasks;
}

/** Prices read, and edits of prices, stock and status through the catalog. */
function productTasks(world: World, rng: Rng): Task[] {
  const tasks: Task[] = [];
  const answer = (action: string, reasoning: string) => ({ action: `stop[${action}]`, reasoning });
  const findProduct = productFinder(world);

  for (const p of world.products) {
    tasks.push({
      id: `price-of-${p.sku.toLowerCase()}`,
      instruction: `What is the price of the ${p.name}?`,
      goal: { kind: "answer", answer: money(p.price) },
      plan: (v) => {
        if (v.page !== "catalog" || v.category !== "Any") return navigate("catalog", v);
        if (v.search !== p.name)
          return {
            action: `type[Search by name][${p.name}]`,
            reasoning: `Search the catalog for ${p.name}.`,
          };
        return answer(money(p.price), `The row for ${p.name} shows ${money(p.price)}.`);
      },
    });
  }
  for (const p of rng.sample(world.products, 24)) {
    let price = rng.int(3, 120) * 100 + rng.pick([0, 49, 99]);
    if (price === p.price) price += 100;
    tasks.push({
      id: `set-price-${p.sku.toLowerCase()}`,
      instruction: `Set the price of ${p.name} to ${money(price)}.`,
      goal: { kind: "edit", sku: p.sku, price },
      plan: (v) => {
        const found = findProduct(p, v);
        if (found) return found;
        const e = v as Extract<View, { page: "edit" }>;
        if (e.price !== price)
          return {
            action: `type[Price][${(price / 100).toFixed(2)}]`,
            reasoning: `Enter the new price, ${money(price)}.`,
          };
        return { action: "click[Save]", reasoning: "The price is right; saving stores it." };
      },
    });
  }
  for (const p of rng.sample(world.products, 12)) {
    const qty = p.qty === 0 ? rng.int(10, 50) : rng.chance(0.3) ? 0 : rng.int(1, 80);
    tasks.push({
      id: `set-stock-${p.sku.toLowerCase()}`,
      instruction: `Update the stock of ${p.name} to ${qty} units.`,
      goal: { kind: "edit", sku: p.sku, qty },
      plan: (v) => {
        const found = findProduct(p, v);
        if (found) return found;
        const e = v as Extract<View, { page: "edit" }>;
        if (e.qty !== qty)
          return { action: `type[Quantity][${qty}]`, reasoning: `Set the quantity to ${qty}.` };
        return { action: "click[Save]", reasoning: "The quantity is right; saving stores it." };
      },
    });
  }
  for (const p of world.products.filter((x) => x.status === "Enabled").slice(0, 10)) {
    tasks.push({
      id: `disable-${p.sku.toLowerCase()}`,
      instruction: `Disable the product ${p.name}.`,
      goal: { kind: "edit", sku: p.sku, status: "Disabled" },
      plan: (v) => {
        const found = findProduct(p, v);
        if (found) return found;
        const e = v as Extract<View, { page: "edit" }>;
        if (e.status !== "Disabled")
          return { action: "select[Status: Disabled]", reasoning: "Switch the status to Disabled." };
        return { action: "click[Save]", reasoning: "The status is Disabled; saving stores it." };
      },
    });
  }
  return tasks;
}

/** The cheapest product of each category. */
function cheapestTasks(world: World): Task[] {
  const tasks: Task[] = [];
  const answer = (action: string, reasoning: string) => ({ action: `stop[${action}]`, reasoning });

  for (const category of CATEGORIES) {
    const cheapest = catalogRows(world, { ...CATALOG, category, sortByPrice: true } as Extract<
      View,
      { page: "catalog" }
    >)[0] as Product;
    tasks.push({
      id: `cheapest-${category.toLowerCase()}`,
      instruction: `What is the cheapest product in the ${category} category?`,
      goal: { kind: "answer", answer: cheapest.name },
      plan: (v) => {
        if (v.page !== "catalog" || v.search !== "")
          return navigate("catalog", v.page === "catalog" ? { page: "dashboard" } : v);
        if (v.category !== category)
          return {
            action: `select[Category: ${category}]`,
            reasoning: `Show only the ${category} products.`,
          };
        if (!v.sortByPrice)
          return { action: "click[Sort by Price]", reasoning: "Sorting by price puts the cheapest first." };
        if (v.pageNo !== 1)
          return { action: "click[Previous page]", reasoning: "The cheapest is on the first page." };
        return answer(cheapest.name, `${cheapest.name} is first at ${money(cheapest.price)}.`);
      },
    });
  }
  return tasks;
}

// ---------------------------------------------------------------------------------------------- sessions

interface Step {
  state: string;
  admissible_actions: string[];
  action: string;
  reasoning: string;
  next_state: string;
  reward: number;
  done: boolean;
  success?: boolean;
  valid?: boolean;
}

const normalise = (answer: string) => answer.trim().toLowerCase().replace(/^\$/, "").replace(/\.00$/, "");

function editCorrect(world: World, goal: Extract<Goal, { kind: "edit" }>, v: View): boolean {
  if (v.page !== "edit" || v.sku !== goal.sku) return false;
  const p = product(world, v.sku);
  return (
    v.price === (goal.price ?? p.price) &&
    v.qty === (goal.qty ?? p.qty) &&
    v.status === (goal.status ?? p.status)
  );
}

/** A plausible mistake: a random admissible action, sometimes one the page does not offer. */
function randomAction(world: World, v: View, goal: Goal, rng: Rng): { action: string; reasoning: string } {
  if (rng.chance(0.12)) {
    const stray = rng.pick(["click[Invoices]", "click[Sales]", "click[SKU-9999]", "click[Export CSV]"]);
    return { action: stray, reasoning: `Maybe ${stray.slice(6, -1)} has it.` };
  }
  // Saving an edit is kept only where the task is that edit: a question's answer never changes under it.
  const options = admissible(world, v).filter(
    (a) => a !== "stop[answer]" && (goal.kind === "edit" || a !== "click[Save]"),
  );
  const picked = rng.pick(options);
  const fill = (field: string) =>
    field === "Price"
      ? (rng.int(100, 9999) / 100).toFixed(2)
      : field === "Quantity"
        ? String(rng.int(0, 90))
        : field === "Search by name"
          ? rng.pick(world.products).name.split(" ")[0]
          : rng.pick(world.customers).name;
  const typed = picked.match(/^type\[(.+)\]$/);
  if (typed) {
    const value = fill(typed[1] as string);
    return { action: `type[${typed[1]}][${value}]`, reasoning: `Trying ${value} in ${typed[1]}.` };
  }
  return {
    action: picked,
    reasoning: `Not sure where this is; trying ${picked.replace(/^\w+\[|\]$/g, "")}.`,
  };
}

/** A wrong version of the expert's action: a near-miss answer or value. */
function slip(world: World, planned: { action: string; reasoning: string }, rng: Rng) {
  const stop = planned.action.match(/^stop\[(.*)\]$/);
  if (stop) {
    const right = stop[1] as string;
    const wrong = /^\d+$/.test(right)
      ? String(Math.max(0, Number(right) + rng.pick([-2, -1, 1, 2])))
      : right.startsWith("$")
        ? money(Math.round(Number(right.slice(1)) * 100) + rng.pick([-500, -100, 100, 1000]))
        : rng.pick(
            world.customers
              .map((c) => c.name)
              .concat(world.products.map((p) => p.name))
              .filter((n) => n !== right),
          );
    return { action: `stop[${wrong}]`, reasoning: `I think the answer is ${wrong}.` };
  }
  const typed = planned.action.match(/^type\[(Price|Quantity)\]\[(.*)\]$/);
  if (typed) {
    const value = typed[1] === "Price" ? (Number(typed[2]) * 10).toFixed(2) : String(Number(typed[2]) + 10);
    return {
      action: `type[${typed[1]}][${value}]`,
      reasoning: `Enter ${value} as the ${typed[1]?.toLowerCase()}.`,
    };
  }
  return planned;
}

function session(world: World, task: Task, epsilon: number, rng: Rng): Step[] {
  let view: View = { page: "dashboard" };
  const steps: Step[] = [];
  for (let t = 0; t < MAX_STEPS; t++) {
    const planned = task.plan(view);
    const roll = rng.next();
    const chosen =
      roll < epsilon * 0.75
        ? randomAction(world, view, task.goal, rng)
        : roll < epsilon
          ? slip(world, planned, rng)
          : planned;
    const state = render(world, view);
    const base = {
      state,
      admissible_actions: admissible(world, view),
      action: chosen.action,
      reasoning: chosen.reasoning,
    };
    if (!isAdmissible(world, view, chosen.action)) {
      steps.push({ ...base, next_state: state, reward: 0, done: false, valid: false });
      continue;
    }
    const stop = chosen.action.match(/^stop\[(.*)\]$/s);
    if (stop) {
      const right =
        task.goal.kind === "answer" && normalise(stop[1] as string) === normalise(task.goal.answer);
      steps.push({
        ...base,
        next_state: `[Episode finished] answer: ${stop[1]}`,
        reward: right ? 1 : 0,
        done: true,
        success: right,
      });
      return steps;
    }
    const next = transition(world, view, chosen.action);
    if (chosen.action === "click[Save]" && task.goal.kind === "edit") {
      const right = editCorrect(world, task.goal, view);
      steps.push({
        ...base,
        next_state: render(world, next),
        reward: right ? 1 : 0,
        done: true,
        success: right,
      });
      return steps;
    }
    steps.push({ ...base, next_state: render(world, next), reward: 0, done: false });
    view = next;
  }
  return steps;
}

export interface WebAdminLine {
  domain: string;
  instruction: string;
  task_id: string;
  split: "train" | "test";
  source: "offline";
  policy: string;
  steps: Step[];
}

/** The sample: `count` sessions over the site's tasks, about one task in five held out for test. */
export function generateWebAdmin(seed: string = DEFAULT_SEED, count: number = DEFAULT_COUNT): WebAdminLine[] {
  const rng = new Rng(seed);
  const world = makeWorld(rng);
  const tasks = makeTasks(world, rng);
  const test = new Set(rng.sample(tasks, Math.round(tasks.length / 5)).map((t) => t.id));
  const plan: { task: Task; policy: string; epsilon: number }[] = tasks.map((task) => ({
    task,
    policy: "expert",
    epsilon: 0,
  }));
  while (plan.length < count) {
    const erratic = rng.chance(0.3);
    plan.push({
      task: rng.pick(tasks),
      policy: erratic ? "noisy-0.7" : "noisy-0.3",
      epsilon: erratic ? 0.7 : 0.3,
    });
  }
  // A noisy session that came out the same as an earlier one is played again: every line is a new trajectory.
  const seen = new Set<string>();
  return plan.slice(0, count).map(({ task, policy, epsilon }, i) => {
    for (let attempt = 0; ; attempt++) {
      const steps = session(
        world,
        task,
        epsilon,
        new Rng(attempt === 0 ? `${seed}:${i}` : `${seed}:${i}:${attempt}`),
      );
      const key = JSON.stringify([task.id, policy, steps]);
      if (seen.has(key) && attempt < 50) continue;
      seen.add(key);
      return {
        domain: WEB_ADMIN_DOMAIN,
        instruction: task.instruction,
        task_id: `${WEB_ADMIN_DOMAIN}:${task.id}`,
        split: test.has(task.id) ? "test" : "train",
        source: "offline",
        policy,
        steps,
      };
    }
  });
}

export function webAdminJsonl(lines: WebAdminLine[]): string {
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}
