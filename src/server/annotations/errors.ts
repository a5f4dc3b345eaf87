/** Who holds a trace someone else asked for, and until when: the browser says it in its own words and clock. */
export interface LockHolder {
  holder: string;
  until: Date;
}

/** A review that cannot happen, with the tRPC code that says why (the router maps it; the CLI can print it). */
export class AnnotationError extends Error {
  constructor(
    readonly code: "NOT_FOUND" | "CONFLICT" | "BAD_REQUEST",
    message: string,
    readonly lock?: LockHolder,
  ) {
    super(message);
    this.name = "AnnotationError";
  }
}

export function notFound(id: string): AnnotationError {
  return new AnnotationError("NOT_FOUND", `No annotation with id ${id}`);
}

export function lockedBy(holder: string, until: Date): AnnotationError {
  return new AnnotationError("CONFLICT", `This trace is locked by ${holder} until ${until.toISOString()}`, {
    holder,
    until,
  });
}
