import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { isNotFound, shouldRetry } from "./react";

const serverError = (code: string) =>
  TRPCClientError.from({
    error: { code: -32004, message: "No run with id x", data: { code, httpStatus: 404 } },
  });

describe("query retries", () => {
  it("never retries a NOT_FOUND: asking again will not make the run or episode exist", () => {
    expect(isNotFound(serverError("NOT_FOUND"))).toBe(true);
    expect(shouldRetry(0, serverError("NOT_FOUND"))).toBe(false);
  });

  it("never retries a refusal: nobody signed in, or a role that may not", () => {
    expect(shouldRetry(0, serverError("UNAUTHORIZED"))).toBe(false);
    expect(shouldRetry(0, serverError("FORBIDDEN"))).toBe(false);
  });

  it("retries other failures a few times", () => {
    expect(isNotFound(serverError("INTERNAL_SERVER_ERROR"))).toBe(false);
    expect(shouldRetry(0, serverError("INTERNAL_SERVER_ERROR"))).toBe(true);
    expect(shouldRetry(2, new Error("network"))).toBe(true);
    expect(shouldRetry(3, new Error("network"))).toBe(false);
  });
});
