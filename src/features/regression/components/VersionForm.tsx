"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import styles from "../regression.module.css";

interface Props {
  domain: string;
  /** The endpoint the app is configured with, offered as the default model. */
  endpoint: { configured: boolean; model: string } | undefined;
  promptVersion: string | undefined;
}

const int = (value: string, fallback: number) => {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : fallback;
};

/**
 * Picks a version of the experience model, an embedded configuration or an endpoint's model, and runs it against
 * the domain's flagged steps and held-out transitions as a worker job.
 */
export function VersionForm({ domain, endpoint, promptVersion }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [backend, setBackend] = useState<"embedded" | "openai">("embedded");
  const [k, setK] = useState("8");
  const [history, setHistory] = useState("4");
  const [reasoning, setReasoning] = useState(true);
  const [model, setModel] = useState("");
  const [baseURL, setBaseURL] = useState("");
  const [heldOut, setHeldOut] = useState("40");
  const start = useMutation(
    trpc.regression.start.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.regression.checks.pathKey() }),
    }),
  );
  const switches = { k: int(k, 8), historyWindow: int(history, 4), reasoning };
  const run = () =>
    start.mutate({
      version:
        backend === "embedded"
          ? { backend, ...switches }
          : {
              backend,
              ...switches,
              model: model || endpoint?.model || "",
              ...(baseURL.trim() ? { baseURL: baseURL.trim() } : {}),
            },
      scope: { domain, heldOut: int(heldOut, 40) },
    });
  return (
    <section className={`panel ${styles.form}`} aria-label="Run a version">
      <h2>Run a version of the experience model</h2>
      <div className="filters">
        <label className="field">
          Backend
          <select value={backend} onChange={(e) => setBackend(e.target.value as "embedded" | "openai")}>
            <option value="embedded">embedded</option>
            <option value="openai">OpenAI-compatible endpoint</option>
          </select>
        </label>
        {backend === "openai" ? (
          <>
            <label className="field">
              Model
              <input value={model} placeholder={endpoint?.model} onChange={(e) => setModel(e.target.value)} />
            </label>
            <label className="field">
              Endpoint URL
              <input
                value={baseURL}
                placeholder={endpoint?.configured ? "the configured endpoint" : "http://127.0.0.1:8000/v1"}
                onChange={(e) => setBaseURL(e.target.value)}
              />
            </label>
          </>
        ) : null}
        <label className="field">
          Demonstrations (k)
          <input type="number" min={0} max={64} value={k} onChange={(e) => setK(e.target.value)} />
        </label>
        <label className="field">
          History window
          <input
            type="number"
            min={0}
            max={100}
            value={history}
            onChange={(e) => setHistory(e.target.value)}
          />
        </label>
        <label className="field">
          Held-out transitions
          <input
            type="number"
            min={0}
            max={2000}
            value={heldOut}
            onChange={(e) => setHeldOut(e.target.value)}
          />
        </label>
        <label className={styles.check}>
          <input type="checkbox" checked={reasoning} onChange={(e) => setReasoning(e.target.checked)} />{" "}
          reasoning
        </label>
        <button type="button" className="primary" disabled={start.isPending} onClick={run}>
          Run against the suite
        </button>
      </div>
      {backend === "openai" && promptVersion ? (
        <p className="hint">
          The endpoint is asked with this build's prompt, {promptVersion}; the check records it.
        </p>
      ) : null}
      {start.error ? <div className="error">{start.error.message}</div> : null}
    </section>
  );
}
