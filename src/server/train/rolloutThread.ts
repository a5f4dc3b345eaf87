/**
 * A rollout thread (rolloutThreads.ts): the run's synthetic environment rebuilt from the same offline
 * transitions, experience settings and learnt memory, and a copy of the policy that takes the run's weights before
 * each iteration. It plays whole episodes, each with its own stream, so its episodes are the ones the main thread
 * would have played.
 */
import { parentPort, workerData } from "node:worker_threads";
import { getRealDomain } from "@/core/envs/registry";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { SyntheticEnvironment } from "@/core/experience/synthetic";
import { LinearPolicy } from "@/core/policy/linearPolicy";
import { LinearValue } from "@/core/policy/value";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import { type CollectedEpisode, collectEpisode } from "@/core/rl/collect";
import { startStates } from "@/core/train/startState";
import { answerRequests } from "../threads/requestThreads";
import type { EpisodeRequest, RolloutThreadData, WeightsMessage } from "./rolloutThreads";

const data = workerData as RolloutThreadData;
const domain = getRealDomain(data.domain);
const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
const ready = buffer.add(data.transitions);
const model = new RetrievalExperienceModel(
  { reasoning: data.settings.reasoning },
  OfflineMemory.fromData(data.memory),
);
const startState = startStates(domain, domain.tasks("train", data.seedTasks));
let policy: LinearPolicy | undefined;
let value: LinearValue | undefined;
const makeEnv = () =>
  new SyntheticEnvironment(domain.name, model, buffer, data.settings, startState, domain.maxSteps);

function takeWeights(m: WeightsMessage): void {
  const same =
    policy?.seed === m.policy.seed &&
    policy.temperature === m.policy.temperature &&
    policy.dimension === m.policy.dimension &&
    policy.fallbackAction === m.policy.fallbackAction &&
    policy.greedy === m.policy.greedy;
  if (!same) policy = new LinearPolicy({ candidates: domain.candidateActions, ...m.policy });
  (policy as LinearPolicy).weights.set(m.weights);
  if (m.value) {
    value ??= new LinearValue(m.value.length);
    value.weights.set(m.value);
  } else value = undefined;
}

if (parentPort)
  answerRequests<EpisodeRequest, CollectedEpisode>(
    parentPort,
    async ({ task, maxSteps, key }) => {
      await ready;
      if (!policy) throw new Error("an episode before any weights: sync the policy first");
      return collectEpisode(makeEnv(), policy, task, maxSteps, key, value);
    },
    (m) => takeWeights(m as WeightsMessage),
  );
