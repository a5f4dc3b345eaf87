/**
 * The household domain: an offline text version of ALFWorld (Shridhar et al. 2021, TextWorld side), the real
 * environment DreamGym's ALFWorld column is measured against.
 */
import type { Split, Task } from "../../types";
import type { RealDomain } from "../domain";
import { HOUSEHOLD_DOMAIN, HOUSEHOLD_MAX_STEPS, HouseholdEnvironment } from "./env";
import { householdCandidateActions, householdExpert, householdNoisy, householdRandom } from "./policies";
import { householdTask } from "./tasks";

export const household: RealDomain = {
  name: HOUSEHOLD_DOMAIN,
  maxSteps: HOUSEHOLD_MAX_STEPS,
  task: householdTask,
  tasks(split: Split, count: number): Task[] {
    return Array.from({ length: Math.max(0, count) }, (_, index) => householdTask(split, index));
  },
  createEnvironment: () => new HouseholdEnvironment(),
  candidateActions: householdCandidateActions,
  expert: () => householdExpert(),
  random: householdRandom,
  noisy: householdNoisy,
};

export {
  LAMP_CLASSES,
  RECEPTACLE_CLASSES,
  ROOM_KINDS,
  ROOM_OBJECTS,
  type RoomKind,
  TASK_TYPES,
  type TaskType,
} from "./catalog";
export { HOUSEHOLD_DOMAIN, HOUSEHOLD_MAX_STEPS, HouseholdEnvironment, replay, replaySync } from "./env";
export {
  checkHouseholdGoal,
  type GoalCheck,
  HouseholdGoal,
  HouseholdGoalError,
  householdGoalProblems,
  householdInstruction,
  validateHouseholdGoal,
} from "./goal";
export { canonicalCommand, parseCommand } from "./grammar";
export { expertCommand, type Knowledge } from "./planner";
export {
  type HouseholdExpertOptions,
  householdCandidateActions,
  householdExpert,
  householdNoisy,
  householdRandom,
  type Reconstruction,
  reconstructEpisode,
} from "./policies";
export { generateRoom } from "./rooms";
export { admissibleCommands, applyAction, NOTHING_HAPPENS } from "./rules";
export { type HouseholdTaskMeta, householdSeedGoal, householdTask, householdTaskFromGoal } from "./tasks";
export { isGoalSatisfied, type World } from "./world";
