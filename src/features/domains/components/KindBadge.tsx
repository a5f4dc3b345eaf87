import type { DomainKind } from "../types";

const LOOK: Record<DomainKind, { text: string; tone: string; title: string }> = {
  "built-in": {
    text: "built in",
    tone: "good",
    title: "A real environment in the app: real success, fidelity and the sim-to-real gap",
  },
  remote: {
    text: "remote",
    tone: "",
    title:
      "A real environment outside the app, reached by URL: real success, fidelity and the sim-to-real gap",
  },
  imported: {
    text: "imported",
    tone: "muted",
    title: "Logs only: trained in its synthetic environment, evaluated by proxies",
  },
};

export function KindBadge({ kind }: { kind: DomainKind }) {
  const look = LOOK[kind];
  return (
    <span className={`badge ${look.tone}`} title={look.title} data-testid="domain-kind">
      {look.text}
    </span>
  );
}
