import type { AnnotationDetail } from "../types";

/** Whom the item is assigned to and what each annotator said of it: where two disagree, it shows here. */
export function ItemPeople({ item }: { item: AnnotationDetail }) {
  if (item.assignees.length === 0 && item.reviews.length === 0) return null;
  const verdicts = new Map(item.reviews.map((r) => [r.author, r.verdict]));
  const people = [...new Set([...item.assignees, ...verdicts.keys()])];
  return (
    <p className="hint" data-testid="item-people" style={{ margin: "6px 0 0" }}>
      {item.assignees.length ? "Assigned to " : "Reviewed by "}
      {people.map((person, i) => (
        <span key={person}>
          {i ? ", " : ""}
          <strong>{person}</strong>
          {verdicts.has(person)
            ? ` (${verdicts.get(person)})`
            : item.assignees.includes(person)
              ? " (to do)"
              : ""}
        </span>
      ))}
    </p>
  );
}
