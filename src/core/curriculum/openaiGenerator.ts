/**
 * Task variations written by a model behind any OpenAI-compatible endpoint. The model proposes goals; the
 * curriculum disposes: every goal goes through the domain's zod schema and validator (plus the train-split
 * rules), and an invalid one is dropped with its reasons, counted, and never becomes a task. A malformed reply
 * gets the client's one repair attempt; a reply still unusable after it yields no variations (and is counted),
 * while an endpoint that cannot answer throws LlmRequestError, because a run against a dead endpoint must stop.
 */
import type { HouseholdGoal } from "../envs/household";
import type { OfficeGoal } from "../envs/office";
import type { ShopGoal } from "../envs/shop";
import type { LlmClient } from "../llm";
import type { Task, Usage } from "../types";
import type { Rng } from "../util/random";
import { type CurriculumGoalCheck, type CurriculumGoals, isCurriculumDomain } from "./domainGoals";
import { assertCount, assertVariable, canonicalJson, type TaskGenerator } from "./generator";
import { householdGoals } from "./householdGoals";
import { householdPromptContext } from "./householdPromptContext";
import { officeGoals } from "./officeGoals";
import { officePromptContext } from "./officePromptContext";
import {
  buildVariationPrompt,
  type DomainPromptContext,
  VariationReply,
  variationRepair,
} from "./openaiPrompt";
import { shopGoals } from "./shopGoals";
import { shopPromptContext } from "./shopPromptContext";

export interface OpenAITaskGeneratorOptions {
  /** Some spread helps variations differ; unset: the server's default. */
  temperature?: number;
  maxTokens?: number;
}

/** A proposed goal that did not become a task, and why. */
export interface DroppedVariation {
  /** Its position in the reply's "goals". */
  index: number;
  goal: unknown;
  reasons: string[];
}

export interface VariationReport {
  parentId: string;
  requested: number;
  tasks: Task[];
  dropped: DroppedVariation[];
  /** Set when the reply was unusable even after the repair: no goals were read from it. */
  replyError?: string;
  repaired: boolean;
  /** Every reply text received (the first, and the repaired one). */
  raws: string[];
  model: string;
  usage: Usage;
  latencyMs: number;
}

export interface OpenAIGeneratorStats {
  calls: number;
  /** Goals read from usable replies. */
  proposed: number;
  accepted: number;
  dropped: number;
  /** Replies still unusable after the repair. */
  unusableReplies: number;
}

interface DomainBinding<G> {
  goals: CurriculumGoals<G>;
  context(goal: G, rng: Rng): DomainPromptContext;
}

const shopBinding: DomainBinding<ShopGoal> = { goals: shopGoals, context: shopPromptContext };
const householdBinding: DomainBinding<HouseholdGoal> = {
  goals: householdGoals,
  context: householdPromptContext,
};

const officeBinding: DomainBinding<OfficeGoal> = { goals: officeGoals, context: officePromptContext };

const DEFAULT_MAX_TOKENS = 2_048;

export class OpenAITaskGenerator implements TaskGenerator {
  readonly name: string;
  private readonly counters: OpenAIGeneratorStats = {
    calls: 0,
    proposed: 0,
    accepted: 0,
    dropped: 0,
    unusableReplies: 0,
  };

  constructor(
    private readonly llm: LlmClient,
    private readonly options: OpenAITaskGeneratorOptions = {},
  ) {
    this.name = `openai:${llm.model}`;
  }

  stats(): OpenAIGeneratorStats {
    return { ...this.counters };
  }

  async vary(parent: Task, count: number, rng: Rng): Promise<Task[]> {
    return (await this.generate(parent, count, rng)).tasks;
  }

  /** vary(), with what was dropped and why, the raw replies and the cost: for logs and the curriculum UI. */
  async generate(parent: Task, count: number, rng: Rng): Promise<VariationReport> {
    if (!isCurriculumDomain(parent.domain))
      throw new Error(
        `openai task generator: no goal rules for domain "${parent.domain}" (task ${parent.id})`,
      );
    if (parent.domain === "shop") return this.generateWith(shopBinding, parent, count, rng);
    if (parent.domain === "office") return this.generateWith(officeBinding, parent, count, rng);
    return this.generateWith(householdBinding, parent, count, rng);
  }

  private async generateWith<G>(
    binding: DomainBinding<G>,
    parent: Task,
    count: number,
    rng: Rng,
  ): Promise<VariationReport> {
    assertVariable(parent, binding.goals.domain);
    assertCount(count);
    const goal = binding.goals.parentGoal(parent);
    const empty = {
      parentId: parent.id,
      requested: count,
      tasks: [],
      dropped: [],
      repaired: false,
      raws: [],
    };
    if (count === 0)
      return { ...empty, model: this.name, usage: { promptTokens: 0, completionTokens: 0 }, latencyMs: 0 };

    this.counters.calls++;
    const result = await this.llm.chatJson(
      buildVariationPrompt(parent, goal, count, binding.context(goal, rng)),
      {
        schema: VariationReply,
        repair: variationRepair(count),
        temperature: this.options.temperature,
        maxTokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
      },
    );
    const base = {
      ...empty,
      repaired: result.repaired,
      raws: result.raws,
      model: `openai:${result.model}`,
      usage: result.usage,
      latencyMs: result.latencyMs,
    };
    if (!result.ok) {
      this.counters.unusableReplies++;
      return { ...base, replyError: result.error };
    }

    const tasks: Task[] = [];
    const dropped: DroppedVariation[] = [];
    const seen = new Set([canonicalJson(goal)]);
    for (const [index, proposal] of result.value.goals.entries()) {
      const verdict =
        tasks.length >= count
          ? { ok: false as const, errors: [`more goals than the ${count} asked for`] }
          : admit(binding.goals, proposal, seen);
      if (verdict.ok) tasks.push(binding.goals.toTask(verdict.goal, parent));
      else dropped.push({ index, goal: proposal, reasons: verdict.errors });
    }
    this.counters.proposed += result.value.goals.length;
    this.counters.accepted += tasks.length;
    this.counters.dropped += dropped.length;
    return { ...base, tasks, dropped };
  }
}

/** A proposed goal checked by the domain and against the goals already taken (the seed's included). */
function admit<G>(goals: CurriculumGoals<G>, proposal: unknown, seen: Set<string>): CurriculumGoalCheck<G> {
  const check = goals.check(proposal);
  if (!check.ok) return check;
  const key = canonicalJson(check.goal);
  if (seen.has(key))
    return { ok: false, errors: ["same goal as the seed task or an earlier goal of the reply"] };
  seen.add(key);
  return check;
}
