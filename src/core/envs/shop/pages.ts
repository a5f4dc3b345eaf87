/**
 * The pages of the shop as compact text, in WebShop's "text" observation style: cleaned page elements joined by
 * " [SEP] ", no HTML. This is the abstract state DreamGym's experience model reads and writes.
 */
import type { Observation } from "../../types";
import { getProduct, type Product } from "./catalog";

export const RESULTS_PER_PAGE = 10;
/** The admissible search action on the search page: a template, the query is the agent's to write. */
export const SEARCH_TEMPLATE = "search[...]";

/** Buttons by their clickable text (lowercase, as WebShop's admissible actions list them). */
export const BUTTON = {
  backToSearch: "back to search",
  next: "next >",
  prev: "< prev",
  description: "description",
  features: "features",
  buyNow: "buy now",
} as const;

export type ShopPage =
  | { kind: "search" }
  | { kind: "results"; query: string; page: number; results: readonly string[] }
  | {
      kind: "item" | "description" | "features";
      query: string;
      page: number;
      results: readonly string[];
      asin: string;
    };

export type PageKind = ShopPage["kind"];

function header(instruction: string): string {
  return `Instruction: [SEP] ${instruction} [SEP] Back to Search`;
}

function money(price: number): string {
  return `$${price.toFixed(2)}`;
}

function pageCount(results: readonly string[]): number {
  return Math.max(1, Math.ceil(results.length / RESULTS_PER_PAGE));
}

function requireProduct(asin: string): Product {
  const p = getProduct(asin);
  if (!p) throw new Error(`shop page refers to unknown product ${asin}`);
  return p;
}

/** The clickable elements of a page, lowercase; the environment accepts exactly these. */
export function clickables(page: ShopPage): string[] {
  switch (page.kind) {
    case "search":
      return [];
    case "results": {
      const out: string[] = [BUTTON.backToSearch];
      if (page.page > 1) out.push(BUTTON.prev);
      if (page.page < pageCount(page.results)) out.push(BUTTON.next);
      const start = (page.page - 1) * RESULTS_PER_PAGE;
      for (const asin of page.results.slice(start, start + RESULTS_PER_PAGE)) out.push(asin.toLowerCase());
      return out;
    }
    case "item": {
      const p = requireProduct(page.asin);
      const values = Object.values(p.options).flat();
      return [
        BUTTON.backToSearch,
        BUTTON.prev,
        ...values,
        BUTTON.description,
        BUTTON.features,
        BUTTON.buyNow,
      ];
    }
    case "description":
    case "features":
      return [BUTTON.backToSearch, BUTTON.prev];
  }
}

function renderText(page: ShopPage, instruction: string, selected: Readonly<Record<string, string>>): string {
  switch (page.kind) {
    case "search":
      return `WebShop [SEP] Instruction: [SEP] ${instruction} [SEP] Search`;
    case "results": {
      const parts = [header(instruction), `Page ${page.page} (Total results: ${page.results.length})`];
      if (page.page > 1) parts.push("< Prev");
      if (page.page < pageCount(page.results)) parts.push("Next >");
      const start = (page.page - 1) * RESULTS_PER_PAGE;
      for (const asin of page.results.slice(start, start + RESULTS_PER_PAGE)) {
        const p = requireProduct(asin);
        parts.push(p.asin, p.title, money(p.price));
      }
      return parts.join(" [SEP] ");
    }
    case "item": {
      const p = requireProduct(page.asin);
      const parts = [header(instruction), "< Prev"];
      for (const [type, values] of Object.entries(p.options)) parts.push(type, ...values);
      parts.push(
        p.title,
        `Price: ${money(p.price)}`,
        `Rating: ${p.rating === null ? "N.A." : p.rating.toFixed(1)}`,
      );
      const chosen = Object.entries(selected);
      // WebShop shows the choice as a pressed radio button; in text we have to say it.
      if (chosen.length > 0) parts.push(`Selected: ${chosen.map(([t, v]) => `${t}: ${v}`).join("; ")}`);
      parts.push("Description", "Features", "Buy Now");
      return parts.join(" [SEP] ");
    }
    case "description": {
      const p = requireProduct(page.asin);
      return [header(instruction), "< Prev", "Description", p.description].join(" [SEP] ");
    }
    case "features": {
      const p = requireProduct(page.asin);
      return [header(instruction), "< Prev", "Features", ...p.features].join(" [SEP] ");
    }
  }
}

export function renderPage(
  page: ShopPage,
  instruction: string,
  selected: Readonly<Record<string, string>>,
): Observation {
  const actions = page.kind === "search" ? [SEARCH_TEMPLATE] : clickables(page).map((c) => `click[${c}]`);
  return { text: renderText(page, instruction, selected), actions };
}

/**
 * Which page an observation shows, read from the text alone so it also works on states written by an
 * experience model (which may omit the action list).
 */
export function pageKindOf(obs: Observation): PageKind | "unknown" {
  const t = obs.text;
  if (t.startsWith("WebShop [SEP]")) return "search";
  if (t.includes("(Total results:")) return "results";
  if (t.includes("[SEP] Buy Now")) return "item";
  if (t.includes("[SEP] < Prev [SEP] Description [SEP]")) return "description";
  if (t.includes("[SEP] < Prev [SEP] Features [SEP]")) return "features";
  return "unknown";
}
