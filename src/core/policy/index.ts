/** The linear policy (the embedded backend's trainable one): a linear softmax over candidate actions with hashed features, and its critic. */
export {
  CHECKPOINT_KIND,
  CheckpointMismatchError,
  loadCheckpoint,
  PolicyCheckpoint,
  saveCheckpoint,
} from "./checkpoint";
export { buildContext, type DecisionContext } from "./context";
export { type CandidateRows, decisionFeatures, FEATURE_SPACE_VERSION } from "./features";
export {
  type CandidateSource,
  DEFAULT_DIMENSION,
  DEFAULT_FALLBACK_ACTION,
  DEFAULT_TEMPERATURE,
  type DecisionResult,
  type EpisodeAgent,
  type EpisodeOptions,
  LinearPolicy,
  type LinearPolicyOptions,
} from "./linearPolicy";
export { replayDecisions } from "./replayDecisions";
export { LinearValue } from "./value";
