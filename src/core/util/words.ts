/**
 * Content words: what retrieval, the experience model's evidence and imported domains' candidates compare texts
 * by, without the instruction boilerplate every task shares ("i need", "price lower than … dollars").
 */
const STOPWORDS = new Set(
  "a an the and or of in on at to for with from by is are be i im i'm me my we you your it its that this these those need want looking find buy get some put look under lower than price dollars dollar please can could would like task your".split(
    " ",
  ),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word) || word.length <= 1;
}

export function contentWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z0-9]+(?:\.[0-9]+)?/g) ?? [])].filter(
    (w) => !STOPWORDS.has(w) && w.length > 1,
  );
}

/** The words a full-text index keys on: lowercase alphanumeric runs, without stopwords. */
export function searchTokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !isStopword(w));
}
