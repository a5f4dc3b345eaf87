import { z } from "zod";

/** There is no login: the annotator's name is who they say they are, and it is what locks and events record. */
export const AnnotatorName = z
  .string()
  .trim()
  .min(1, "enter your name before reviewing")
  .max(64, "a name is at most 64 characters");

export const AnnotationId = z.string().trim().min(1, "an annotation id is required").max(64);
