import { VALIDATION_OFFSET } from "@/core/train/heldOut";
import { type Domain, PAPER, PAPER_ENV, type Scale, type TableRow } from "./spec";
import { type Difference, type Interval, meanInterval, welch } from "./stats";

/** One run's outcome, as the train CLI prints it (or why it produced none). */
export interface RunOutcome {
  domain: Domain;
  seed: number;
  key: string;
  finalSuccess?: number;
  /** The final policy on the same test tasks in the synthetic environment (rows with a synthetic phase). */
  finalSimSuccess?: number;
  /** The shop only: final success under WebShop's own rule (fuzzy option match above 85). */
  finalWebshopSuccess?: number;
  untrainedSuccess?: number;
  realTransitions?: number;
  syntheticTransitions?: number;
  seconds?: number;
  /** An imported-domain row: the proxies it was evaluated by (its finalSuccess is the one real check). */
  proxy?: {
    syntheticSuccess: number;
    confidence: number | null;
    actionAgreement: number | null;
    /** The final evaluation's verdict on the proxies from the held-out logs (core/trust), when it had one. */
    trust?: { trustworthy: boolean; reasons: string[] };
  };
  error?: string;
}

export interface RowSummary {
  domain: Domain;
  key: string;
  label: string;
  runs: number;
  failed: number;
  /** Success % on held-out real test tasks: mean and sample standard deviation over seeds. */
  successMean: number | null;
  successStd: number | null;
  /** Student's t 95% interval of the success mean (null under two seeds). */
  successCi95: Interval | null;
  /** Against the domain's real-env row of the same algorithm: Welch's 95% interval of the difference, and noise. */
  vsReal: (Difference & { reference: string }) | null;
  /** Sim-to-real gap in points: success in the synthetic environment minus real, mean and std over seeds. */
  /** The shop only: success % under WebShop's own rule, mean and std over seeds. */
  webshopMean: number | null;
  webshopStd: number | null;
  gapMean: number | null;
  gapStd: number | null;
  realTransitions: number | null;
  syntheticTransitions: number | null;
  seconds: number | null;
  paper: number | null;
  /** Imported-domain rows: their proxies (synthetic success and agreement in %, confidence 0–1), mean and std. */
  proxies: {
    syntheticSuccess: MeanStd;
    confidence: MeanStd;
    actionAgreement: MeanStd;
    /** Seeds whose verdict found the proxies untrustworthy, of those with a verdict, and their reasons (once each). */
    untrustworthy: number;
    judged: number;
    reasons: string[];
  } | null;
}

interface MeanStd {
  mean: number | null;
  std: number | null;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

function std(xs: number[]): number | null {
  if (xs.length < 2) return xs.length === 1 ? 0 : null;
  const m = mean(xs) ?? 0;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

const meanStd = (xs: number[]): MeanStd => ({ mean: mean(xs), std: std(xs) });

const gapOf = (o: RunOutcome) =>
  o.finalSimSuccess === undefined || o.finalSuccess === undefined
    ? undefined
    : (o.finalSimSuccess - o.finalSuccess) * 100;

/**
 * Real-env rows of another part of the table (its file's summaries), for a part that has none of its own: its rows
 * are then compared with those, as if they were beside them. Their runs must be at the same scale and seeds.
 */
export interface ReferenceRows {
  source: string;
  summaries: RowSummary[];
}

export function summarise(
  domain: Domain,
  rows: Pick<TableRow, "key" | "label">[],
  outcomes: RunOutcome[],
  reference?: ReferenceRows,
): RowSummary[] {
  return rows
    .map((row) => {
      const mine = outcomes.filter((o) => o.domain === domain && o.key === row.key);
      const ok = mine.filter((o) => o.error === undefined && o.finalSuccess !== undefined);
      const pick = (f: (o: RunOutcome) => number | undefined) =>
        ok.map(f).filter((x): x is number => x !== undefined);
      return {
        domain,
        key: row.key,
        label: row.label,
        runs: mine.length,
        failed: mine.length - ok.length,
        successMean: mean(pick((o) => (o.finalSuccess ?? 0) * 100)),
        successStd: std(pick((o) => (o.finalSuccess ?? 0) * 100)),
        successCi95: null,
        vsReal: null,
        webshopMean: mean(
          pick((o) => (o.finalWebshopSuccess === undefined ? undefined : o.finalWebshopSuccess * 100)),
        ),
        webshopStd: std(
          pick((o) => (o.finalWebshopSuccess === undefined ? undefined : o.finalWebshopSuccess * 100)),
        ),
        gapMean: mean(pick(gapOf)),
        gapStd: std(pick(gapOf)),
        realTransitions: mean(pick((o) => o.realTransitions)),
        syntheticTransitions: mean(pick((o) => o.syntheticTransitions)),
        seconds: mean(pick((o) => o.seconds)),
        paper: PAPER[domain][row.key] ?? null,
        proxies: ok.some((o) => o.proxy)
          ? {
              syntheticSuccess: meanStd(pick((o) => (o.proxy ? o.proxy.syntheticSuccess * 100 : undefined))),
              confidence: meanStd(pick((o) => o.proxy?.confidence ?? undefined)),
              actionAgreement: meanStd(
                pick((o) => (o.proxy?.actionAgreement == null ? undefined : o.proxy.actionAgreement * 100)),
              ),
              ...trustOf(ok),
            }
          : null,
      };
    })
    .map((summary, _, all) => withNoise(summary, all, reference));
}

/** A row's interval, and how it differs from real-env training with the same algorithm, inside the noise or not. */
function withNoise(s: RowSummary, all: RowSummary[], other?: ReferenceRows): RowSummary {
  const n = s.runs - s.failed;
  const successCi95 = meanInterval(s.successMean, s.successStd, n);
  const algorithm = s.key.split("/")[1];
  const key = `real/${algorithm}`;
  const own = algorithm ? all.find((r) => r.key === key) : undefined;
  const borrowed =
    algorithm && !own ? other?.summaries.find((r) => r.domain === s.domain && r.key === key) : undefined;
  const reference = own ?? (borrowed && { ...borrowed, label: `${borrowed.label} (${other?.source})` });
  const vsReal =
    reference && reference.key !== s.key
      ? welch(
          { mean: s.successMean, sd: s.successStd, n },
          { mean: reference.successMean, sd: reference.successStd, n: reference.runs - reference.failed },
        )
      : null;
  return { ...s, successCi95, vsReal: vsReal ? { ...vsReal, reference: reference!.label } : null };
}

/** The seeds' trust verdicts on their proxies: how many found them untrustworthy, and why. */
function trustOf(outcomes: RunOutcome[]) {
  const verdicts = outcomes.flatMap((o) => (o.proxy?.trust ? [o.proxy.trust] : []));
  const failed = verdicts.filter((v) => !v.trustworthy);
  return {
    untrustworthy: failed.length,
    judged: verdicts.length,
    reasons: [...new Set(failed.flatMap((v) => v.reasons))],
  };
}

/** A proxy row's synthetic success cell, marked when the held-out logs found the proxies untrustworthy. */
function trustMark(p: { untrustworthy: number; judged: number }): string {
  return p.untrustworthy > 0 ? ` ⚠ untrustworthy (${p.untrustworthy}/${p.judged} seeds)` : "";
}

const fmt = (x: number | null, digits = 1) => (x === null ? "—" : x.toFixed(digits));
const count = (x: number | null) =>
  x === null
    ? "—"
    : x >= 10_000
      ? `${(x / 1000).toFixed(0)}K`
      : x >= 1000
        ? `${(x / 1000).toFixed(1)}K`
        : `${Math.round(x)}`;

const interval = (ci: Interval | null) => (ci === null ? "—" : `${fmt(ci.low)} – ${fmt(ci.high)}`);
const versus = (d: Difference | null) =>
  d === null
    ? "—"
    : `${d.diff >= 0 ? "+" : ""}${fmt(d.diff)} [${fmt(d.interval.low)}, ${fmt(d.interval.high)}]${d.noise ? " _noise_" : ""}`;

export function markdown(
  summaries: RowSummary[],
  meta: {
    commit: string;
    scale: Scale;
    mode: string;
    minutes: number;
    date: string;
    heldOut?: "test" | "validation";
    overrides?: string[];
    /** The part whose real-env rows this one is compared with, where it has none of its own. */
    reference?: string;
  },
): string {
  const heldOut =
    meta.heldOut === "validation"
      ? `validation tasks (train tasks from ${VALIDATION_OFFSET} on, never trained on; not the test tasks)`
      : "test tasks";
  const lines = [
    "# DreamGym reproduction table (built-in environments, embedded backends)",
    "",
    `Commit \`${meta.commit}\`, ${meta.mode} scale, seeds ${meta.scale.seeds.join(", ")}, ${meta.date}, ` +
      `${meta.minutes.toFixed(1)} min wall time${meta.overrides?.length ? `, with ${meta.overrides.map((o) => `\`${o}\``).join(", ")} in every row` : ""}. ` +
      `Success is % of ${meta.scale.evaluationEpisodes} held-out real ${heldOut} ` +
      "(mean ± standard deviation over seeds, and the 95% interval of the mean by Student's t). " +
      "The column against real-env training is the difference from the real-env row of the same algorithm with " +
      "Welch's 95% interval; where that interval holds 0 the difference is marked _noise_: these seeds cannot " +
      "tell the two rows apart" +
      (meta.reference
        ? ` (where this part has no real-env row of its own, the one in ${meta.reference}, same scale and seeds)`
        : "") +
      ". The sim-to-real gap is the final policy's success on the " +
      "same tasks in the synthetic environment minus its real success: how much of what it learned only " +
      "pleases the experience model. On the shop, success is strict (exact options) as the rewards are; the " +
      "WebShop rule column scores the same purchases by WebShop's own goal.py (an option counts when its fuzzy " +
      "match score is above 85). Paper figures are Llama-3.1-8B on WebShop / ALFWorld: " +
      "the same shape of experiment, not the same environment or policy, so compare gaps, not absolute values.",
    "",
    "The real-env rows train on the domain's own train tasks, as the paper's baselines do: their curriculum picks " +
      "tasks by value but writes no variations. The DreamGym rows' curriculum writes variations (λ bounds their " +
      "share of a batch); the w/o task generation rows turn that off. Every hyperparameter of each row is in its " +
      "run config, resolved with its defaults, in table.json beside this file.",
    "",
  ];
  for (const domain of [...new Set(summaries.map((s) => s.domain))]) {
    lines.push(`## ${domain} (≈ ${PAPER_ENV[domain]})`, "");
    const rows = summaries.filter((x) => x.domain === domain);
    // The shop's second success figure: WebShop's own (fuzzy) rule, beside the strict one the rewards use.
    const webshop = rows.some((s) => s.webshopMean !== null);
    lines.push(
      `| method | success % | 95% interval | vs real env (pts) |${webshop ? " WebShop rule % |" : ""} paper % | sim-to-real gap (pts) | real transitions | synthetic transitions | seconds |`,
      `|---|---|---|---|${webshop ? "---|" : ""}---|---|---|---|---|`,
    );
    for (const s of rows) {
      const success = s.successMean === null ? "failed" : `${fmt(s.successMean)} ± ${fmt(s.successStd)}`;
      const webshopCell = webshop
        ? ` ${s.webshopMean === null ? "—" : `${fmt(s.webshopMean)} ± ${fmt(s.webshopStd)}`} |`
        : "";
      const gap =
        s.gapMean === null ? "—" : `${s.gapMean >= 0 ? "+" : ""}${fmt(s.gapMean)} ± ${fmt(s.gapStd)}`;
      lines.push(
        `| ${s.label} | ${success}${s.failed > 0 ? ` (${s.failed} failed)` : ""} | ${interval(s.successCi95)} | ${versus(s.vsReal)} |${webshopCell} ${fmt(s.paper)} | ${gap} | ${count(s.realTransitions)} | ${count(s.syntheticTransitions)} | ${fmt(s.seconds, 0)} |`,
      );
    }
    lines.push("");
    const proxied = rows.filter((s) => s.proxies !== null);
    if (proxied.length > 0) {
      const ms = (x: MeanStd, digits = 1) => `${fmt(x.mean, digits)} ± ${fmt(x.std, digits)}`;
      lines.push(
        "The imported-only rows never touch the real environment while training: they are evaluated by proxies, " +
          "shown here beside the one real check of the final policy (the success column above). Synthetic success " +
          "is on the held-out imported tasks; agreement is how often the policy's likeliest action is the one the " +
          "held-out successful logs took; confidence is the experience model's, over the evaluation rollouts. A row " +
          "is marked untrustworthy when the experience model failed a check against the held-out logs " +
          "(core/trust/verdict.ts: its thresholds and where they come from); the reasons follow the table.",
        "",
        "| row | proxy: synthetic success % | proxy: action agreement % | proxy: model confidence | real success % |",
        "|---|---|---|---|---|",
      );
      for (const s of proxied) {
        const p = s.proxies!;
        lines.push(
          `| ${s.label} | ${ms(p.syntheticSuccess)}${trustMark(p)} | ${ms(p.actionAgreement)} | ${ms(p.confidence, 2)} | ${fmt(s.successMean)} ± ${fmt(s.successStd)} |`,
        );
      }
      lines.push("");
      for (const s of proxied.filter((r) => r.proxies!.reasons.length > 0))
        lines.push(
          `Why ${s.label}'s proxies are untrustworthy:`,
          ...s.proxies!.reasons.map((r) => `- ${r}`),
          "",
        );
    }
  }
  return lines.join("\n");
}
