/**
 * The policy records its decisions, so the type lives with the policy (policy/decision.ts); the updates here and
 * the learner above them consume it under this name.
 */
export type { Decision, DecisionEpisode } from "../policy/decision";
