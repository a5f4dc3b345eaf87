"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  DEFAULT_IMPORT_FORMAT,
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  type ImportFormat,
} from "@/core/trajectories/formats";
import { Allowed } from "@/features/auth/components/Allowed";
import { useCan } from "@/features/auth/lib/useMe";
import type { QueuedUpload } from "@/server/trajectories/queueUpload";
import { isActiveStatus, JobStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { BufferPanel } from "./BufferPanel";
import { ImportsPanel } from "./ImportsPanel";

const TONE: Record<JobStatus, string> = {
  queued: "muted",
  running: "",
  succeeded: "good",
  failed: "bad",
  cancelled: "muted",
};

function statusTone(status: string): string {
  const known = JobStatus.safeParse(status);
  return known.success ? TONE[known.data] : "muted";
}

/**
 * Sends the file itself as the body of /api/imports, which reads it as it arrives and refuses it at the upload
 * limit; the server's sentence (bad lines, too large) is the error.
 */
async function uploadFile(file: File, format: ImportFormat): Promise<QueuedUpload> {
  const query = new URLSearchParams({ name: file.name, format });
  const response = await fetch(`/api/imports?${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream" },
    body: file,
  });
  if (!response.ok)
    throw new Error((await response.text()).trim() || `The upload failed (${response.status})`);
  return (await response.json()) as QueuedUpload;
}

function ImportForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>(DEFAULT_IMPORT_FORMAT);
  const importMutation = useMutation({
    mutationFn: ({ file, format }: { file: File; format: ImportFormat }) => uploadFile(file, format),
    onSuccess: (data) => {
      setError(null);
      setNotice(
        `Queued an import of ${data.trajectories} trajectories${data.format === "dreamgym" ? "" : ` (read as ${IMPORT_FORMAT_LABELS[data.format]})`}.`,
      );
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() });
    },
    onError: (e) => {
      setNotice(null);
      setError(e.message);
    },
  });
  return (
    <section className="panel" aria-label="Import trajectories">
      <h2>Import trajectories</h2>
      <p className="hint">
        DreamGym JSONL: one trajectory per line, with domain, instruction, steps with state, action, optional
        reasoning, next_state, reward, done. AgentGym's AgentTraj and WebArena-style traces are converted to
        it. A file with any bad line is refused whole; importing the same trajectories twice adds nothing.
      </p>
      <label className="field">
        Format
        <select
          aria-label="Import format"
          value={format}
          onChange={(e) => setFormat(e.target.value as ImportFormat)}
        >
          {IMPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {IMPORT_FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </label>
      <input
        type="file"
        accept=".jsonl,.json,.txt"
        aria-label="Trajectory file"
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          // Cleared, so that picking the same file again (after fixing it) is a change and imports it. The File
          // keeps its contents.
          input.value = "";
          setNotice(null);
          setError(null);
          importMutation.mutate({ file, format });
        }}
      />
      {notice ? <p data-testid="import-notice">{notice}</p> : null}
      {error ? (
        <div className="error" data-testid="import-error">
          {error}
        </div>
      ) : null}
    </section>
  );
}

function CollectForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState<"shop" | "household">("shop");
  const [policy, setPolicy] = useState<"expert" | "random" | "noisy">("expert");
  const [episodes, setEpisodes] = useState(50);
  const collect = useMutation(
    trpc.jobs.collect.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() }),
    }),
  );
  return (
    <section className="panel" aria-label="Collect offline data">
      <h2>Collect offline data from a real environment</h2>
      <div className="filters">
        <label className="field">
          Domain
          <select value={domain} onChange={(e) => setDomain(e.target.value as "shop" | "household")}>
            <option value="shop">shop (WebShop)</option>
            <option value="household">household (ALFWorld)</option>
          </select>
        </label>
        <label className="field">
          Policy
          <select value={policy} onChange={(e) => setPolicy(e.target.value as "expert" | "random" | "noisy")}>
            <option value="expert">expert</option>
            <option value="noisy">ε-noisy expert</option>
            <option value="random">random</option>
          </select>
        </label>
        <label className="field">
          Episodes
          <input
            type="number"
            min={1}
            max={100000}
            value={episodes}
            onChange={(e) => setEpisodes(Number(e.target.value))}
          />
        </label>
        <button
          type="button"
          className="primary"
          disabled={collect.isPending}
          onClick={() =>
            collect.mutate({ domain, policy, episodes, split: "train", epsilon: 0.3, seed: 0, offset: 0 })
          }
        >
          Collect
        </button>
      </div>
      {collect.error ? <div className="error">{collect.error.message}</div> : null}
    </section>
  );
}

export function JobsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Live status: poll while the page is open.
  const jobs = useQuery({ ...trpc.jobs.list.queryOptions({ limit: 50 }), refetchInterval: 1_000 });
  const canCancel = useCan("job:cancel");
  const cancel = useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() }),
    }),
  );
  return (
    <div style={{ display: "grid", gap: 14 }}>
      <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr 1fr", gap: 14 }}>
        <Allowed permission="data:import" explain="import trajectories">
          <ImportForm />
        </Allowed>
        <Allowed permission="data:collect" explain="collect offline data">
          <CollectForm />
        </Allowed>
        <BufferPanel />
      </div>
      <ImportsPanel />
      <table className="grid" aria-label="Jobs">
        <thead>
          <tr>
            <th>Job</th>
            <th>Status</th>
            <th>Progress</th>
            <th>Attempts</th>
            <th>Message / error</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {jobs.data?.map((job) => (
            <tr key={job.id} data-testid={`job-${job.type}`}>
              <td className="mono">{job.type}</td>
              <td>
                <span className={`badge ${statusTone(job.status)}`}>{job.status}</span>
              </td>
              <td>
                <div className="progress" title={`${Math.round(job.progress * 100)}%`}>
                  <div style={{ width: `${Math.round(job.progress * 100)}%` }} />
                </div>
              </td>
              <td>
                {job.attempts}/{job.maxAttempts}
              </td>
              <td>
                {job.error ? (
                  <pre className="text" style={{ color: "var(--bad)" }}>
                    {job.error}
                  </pre>
                ) : (
                  job.message
                )}
              </td>
              <td className="hint">{job.createdAt.toLocaleString()}</td>
              <td>
                {isActiveStatus(job.status) && canCancel ? (
                  <button
                    type="button"
                    disabled={job.cancelRequested}
                    onClick={() => cancel.mutate({ id: job.id })}
                  >
                    {job.cancelRequested ? "cancelling…" : "Cancel"}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
