import { displayName } from "@/core/util/names";

export { cleanName, displayName } from "@/core/util/names";

/** An import's name: the uploaded file's name, or the path given to the CLI (as the import payload bounds it). */
export const ImportName = displayName(300);

/** A person's name, as the Users page and the review history show it. */
export const PersonName = displayName(100);
