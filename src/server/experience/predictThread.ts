/**
 * A thread of the threaded experience model: the embedded (retrieval) experience model's predictions, one message
 * in, one out. It holds no state that changes a prediction (only memos), so any thread gives the same answer.
 */
import { parentPort, workerData } from "node:worker_threads";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import type { ExperienceInput, ExperienceSettings } from "@/core/experience/types";

export interface PredictRequest {
  id: number;
  input: ExperienceInput;
}

const model = new RetrievalExperienceModel(workerData as Pick<ExperienceSettings, "reasoning">);

parentPort?.on("message", async ({ id, input }: PredictRequest) => {
  try {
    parentPort?.postMessage({ id, prediction: await model.predict(input) });
  } catch (error) {
    parentPort?.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
