export type { Demonstration, ReplayBuffer, SimilarFilter, SimilarQuery } from "./buffer";
export { byScoreThenContent, cosine } from "./cosine";
export { type Embedder, type EmbedderIdentity, sameEmbedder } from "./embedder";
export { ACTION_SHARE, HASH_EMBEDDER_DIMENSION, HashNgramEmbedder, normalise } from "./hashEmbedder";
export { MemoryReplayBuffer } from "./memoryBuffer";
export { splitTransitionText, type TransitionTextInput, transitionText } from "./transitionText";
