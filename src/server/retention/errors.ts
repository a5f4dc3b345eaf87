/** A deletion that cannot happen, with the tRPC code that says why (the router maps it; the CLI prints it). */
export class RetentionError extends Error {
  constructor(
    readonly code: "NOT_FOUND" | "CONFLICT",
    message: string,
  ) {
    super(message);
    this.name = "RetentionError";
  }
}
