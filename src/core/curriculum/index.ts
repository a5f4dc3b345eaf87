/**
 * The curriculum task generator (ARCHITECTURE.md "One iteration"): task value = reward variance over a group of
 * rollouts, a running value table, batch selection under the λ bound on generated tasks, and variations of the
 * most valuable tasks by embedded (operator) or openai generators, with lineage kept.
 */
export {
  CURRICULUM_DOMAINS,
  type CurriculumDomain,
  type CurriculumGoalCheck,
  type CurriculumGoals,
  isCurriculumDomain,
} from "./domainGoals";
export { embeddedTaskGenerator } from "./embedded";
export {
  canonicalJson,
  type TaskGenerator,
  type VariationMeta,
  variationId,
  variationMeta,
} from "./generator";
export { householdGoals } from "./householdGoals";
export { HOUSEHOLD_OPERATORS, householdTaskGenerator } from "./householdVariations";
export {
  type DroppedVariation,
  type OpenAIGeneratorStats,
  OpenAITaskGenerator,
  type OpenAITaskGeneratorOptions,
  type VariationReport,
} from "./openaiGenerator";
export { type OperatorRejection, OperatorTaskGenerator, type VariationOperator } from "./operators";
export {
  type BatchPick,
  type BatchSelection,
  DEFAULT_EXPLORE_SHARE,
  type PickReason,
  type SelectBatchInput,
  selectBatch,
} from "./selectBatch";
export { shopGoals } from "./shopGoals";
export { SHOP_OPERATORS, shopTaskGenerator } from "./shopVariations";
export { isSuccessReward, MAX_TASK_VALUE, type TaskStats, taskStats, taskValue } from "./taskValue";
export {
  DEFAULT_VALUE_ALPHA,
  type TaskCandidate,
  type TaskIterationStats,
  type TaskValueEntry,
  TaskValueTable,
  TaskValueTableSnapshot,
} from "./valueTable";
export {
  chooseParents,
  type ProposedVariations,
  type ProposeVariationsInput,
  proposeVariations,
} from "./variations";
