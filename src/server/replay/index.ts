export { createEmbedder } from "./createEmbedder";
export { EMBEDDER_SETTING, readEmbedderSetting } from "./embedderSetting";
export {
  type AnnIndexPolicy,
  DEFAULT_ANN_POLICY,
  DEFAULT_SEARCH_TUNING,
  type SearchTuning,
} from "./lanceIndex";
export type { StoredDemonstration, StoredTransition } from "./lanceSchema";
export { EmbedderMismatchError, LanceReplayStore } from "./lanceStore";
export { EmbeddingDimensionError, OpenAIEmbedder } from "./openaiEmbedder";
export { openReplayStore } from "./openStore";
export { reconcile } from "./reconcile";
export { forgetReplayStore, getReplayStore, withReplayStore } from "./replayStore";
export { indexPendingSteps, reindex } from "./sync";
