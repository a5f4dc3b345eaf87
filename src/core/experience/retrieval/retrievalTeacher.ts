import { contentWords } from "../../util/words";
import { actionTemplate, isAdmissible } from "../admissible";
import { elements } from "../fidelity";
import type { ExperienceInput, PredictOptions, Teacher, TeacherTrace, TransitionOutcome } from "../types";
import { goalEvidence } from "./evidence";

export const RETRIEVAL_TEACHER = "retrieval-teacher-v1";

function list(items: string[], max = 4): string {
  const shown = items.slice(0, max).map((x) => `"${x}"`);
  return items.length > max ? `${shown.join(", ")} and ${items.length - max} more` : shown.join(", ");
}

/**
 * The retrieval teacher (the embedded backend's) explains a real transition from what the real environment showed: whether the action was
 * possible, which elements of the state it changed, and why the step was (not) rewarded in terms of the task's
 * requirements. It knows the answer, so its traces are causal explanations to learn from, written as the
 * experience model should think: from the state and action to the outcome, citing demonstrations of the same
 * kind of action. Annotators review them before they are exported for fine-tuning.
 */
export class RetrievalTeacher implements Teacher {
  readonly name = RETRIEVAL_TEACHER;

  async explain(
    input: ExperienceInput,
    outcome: TransitionOutcome,
    _options?: PredictOptions,
  ): Promise<TeacherTrace> {
    const started = performance.now();
    const parts: string[] = [];
    const admissible = isAdmissible(input.action, input.state.actions);
    if (!outcome.valid) {
      parts.push(
        admissible === false
          ? `The action "${input.action}" is not among the actions this state allows, so it cannot be carried out.`
          : `The action "${input.action}" refers to something this state does not offer, so it cannot be carried out.`,
        "An impossible action changes nothing: the next state is the current state, the reward is 0 and the episode goes on.",
      );
      return { reasoning: parts.join(" "), model: this.name, latencyMs: performance.now() - started };
    }

    parts.push(`The action "${input.action}" is possible in this state.`);
    const before = new Set(elements(input.state.text));
    const after = elements(outcome.next.text);
    const added = after.filter((e) => !before.has(e));
    const afterSet = new Set(after);
    const removed = [...before].filter((e) => !afterSet.has(e));
    if (added.length === 0 && removed.length === 0) parts.push("It leaves the visible state as it was.");
    else {
      if (added.length) parts.push(`It brings up ${list(added)}.`);
      if (removed.length) parts.push(`It removes ${list(removed)} from view.`);
    }
    const template = actionTemplate(input.action, input.state);
    const precedent = input.demonstrations.findIndex(
      (d) => actionTemplate(d.action, d.state) === template && d.valid,
    );
    if (precedent >= 0) {
      const d = input.demonstrations[precedent]!;
      parts.push(
        `This is consistent with demonstration ${precedent + 1}, where "${d.action}" likewise led to a state of the same form.`,
      );
    }

    const goal = contentWords(input.task.instruction);
    const seen = new Set(contentWords(`${input.state.text}\n${input.action}\n${outcome.next.text}`));
    const met = goal.filter((w) => seen.has(w));
    const missing = goal.filter((w) => !seen.has(w));
    if (outcome.done) {
      if (outcome.reward >= 1) {
        parts.push(
          `This ends the episode and accomplishes the task: the outcome satisfies the instruction (${list(met, 6)}), so the reward is 1.`,
        );
      } else if (outcome.reward > 0) {
        parts.push(
          `This ends the episode with a partial reward of ${outcome.reward}: the outcome matches part of the instruction (${list(met, 6)})${missing.length ? ` but not ${list(missing, 6)}` : ""}.`,
        );
        const { broken } = goalEvidence(input.task.instruction, input.state, input.action);
        if (broken.length)
          parts.push(`The state already showed requirements broken before this step: ${list(broken, 4)}.`);
      } else {
        parts.push(
          `This ends the episode without accomplishing the task${missing.length ? ` (${list(missing, 6)} not satisfied)` : ""}, so the reward is 0.`,
        );
      }
    } else {
      parts.push("The task is not finished yet, so the reward is 0 and the episode goes on.");
    }
    return { reasoning: parts.join(" "), model: this.name, latencyMs: performance.now() - started };
  }
}
