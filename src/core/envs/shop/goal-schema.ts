/**
 * The hidden goal of a shop task (Task.goal), in WebShop's terms: the goal product (asin) and what identifies its
 * kind (name, product type, category), the attributes and option values asked for, and the price budget.
 * Its own file so the reward and the goal builders can both import it without a cycle.
 */
import { z } from "zod";

export const ShopGoal = z.object({
  /** The product the goal was drawn from; any product meeting the constraints scores as well. */
  asin: z.string().min(1),
  /** The goal product's name ("Brand Line Type"), whose nouns r_type compares against. */
  name: z.string().min(1),
  brand: z.string().min(1),
  /** WebShop's goal "query": the product type its products were scraped under. */
  productType: z.string().min(1),
  category: z.string().min(1),
  subcategory: z.string().min(1),
  attributes: z.array(z.string().min(1)).max(5),
  /** Option type -> required value. */
  options: z.record(z.string().min(1), z.string().min(1)),
  /** "price lower than X dollars": bought price must be <= X. */
  priceUpper: z.number().positive().finite(),
  /** Whether the instruction names the brand, as some WebShop instructions do; the reward ignores brand. */
  mentionBrand: z.boolean().default(false),
});

export type ShopGoal = z.infer<typeof ShopGoal>;
