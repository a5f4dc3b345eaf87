/** Text to match as it is inside a regular expression: its special characters escaped. */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
