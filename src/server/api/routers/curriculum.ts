import { createTRPCRouter } from "../trpc";

export const curriculumRouter = createTRPCRouter({});
