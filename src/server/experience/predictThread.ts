/**
 * A thread of the threaded experience model: the embedded (retrieval) experience model's predictions, one message
 * in, one out. The only state that changes a prediction, its memory, changes by broadcasts that every thread gets
 * in the same order, so any thread gives the same answer.
 */
import { parentPort, workerData } from "node:worker_threads";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import type { ExperienceInput, ExperiencePrediction } from "@/core/experience/types";
import { answerRequests } from "../threads/requestThreads";
import type { LearnMessage, PredictThreadData } from "./threadedModel";

export interface PredictRequest {
  input: ExperienceInput;
}

const data = workerData as PredictThreadData;
const model = new RetrievalExperienceModel(
  { reasoning: data.reasoning },
  data.memory ? OfflineMemory.fromData(data.memory) : undefined,
);

if (parentPort)
  answerRequests<PredictRequest, ExperiencePrediction>(
    parentPort,
    ({ input }) => model.predict(input),
    (message) => {
      const m = message as Partial<LearnMessage>;
      if (m.type === "learn" && m.transitions) model.learn(m.transitions);
    },
  );
