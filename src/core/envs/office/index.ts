/**
 * The office domain: multi-step tool use. An assistant answers a request by calling a small company's API
 * (helpdesk tickets, calendar, shared files) with calls written as text, reading each answer, and changing exactly
 * the records the request describes. Unlike the shop (one catalogue to search, a product to configure) and the
 * household (rooms to walk, objects to carry), every step here is an API call whose answer is a list of records,
 * and the ids to act on are known only once a lookup has shown them.
 */
import type { Split, Task } from "../../types";
import type { RealDomain } from "../domain";
import { OFFICE_DOMAIN, OFFICE_MAX_STEPS, OfficeEnvironment } from "./env";
import { officeCandidateActions, officeExpert, officeNoisy, officeRandom } from "./policies";
import { officeTask } from "./tasks";

export const office: RealDomain = {
  name: OFFICE_DOMAIN,
  maxSteps: OFFICE_MAX_STEPS,
  task: officeTask,
  tasks(split: Split, count: number): Task[] {
    return Array.from({ length: Math.max(0, count) }, (_, index) => officeTask(split, index));
  },
  createEnvironment: () => new OfficeEnvironment(),
  candidateActions: officeCandidateActions,
  expert: () => officeExpert(),
  random: officeRandom,
  noisy: officeNoisy,
};

export { OFFICE_DOMAIN, OFFICE_MAX_STEPS, OfficeEnvironment, officeIntro, replaySync } from "./env";
export {
  changeCall,
  checkOfficeGoal,
  type GoalCheck,
  OfficeChange,
  OfficeGoal,
  OfficeGoalError,
  officeInstruction,
  requiredCalls,
  validateOfficeGoal,
} from "./goal";
export {
  expertCall,
  officeCandidateActions,
  officeExpert,
  officeNoisy,
  officeRandom,
  reconstructEpisode,
} from "./policies";
export {
  OFFICE_KINDS,
  type OfficeKind,
  officeSeedGoal,
  officeTask,
  officeTaskFromGoal,
  possibleChanges,
} from "./tasks";
export { availableCalls, callKey, lookupCalls, runCall, startEpisode } from "./tools";
export { generateWorld, type World } from "./world";
