"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  DEFAULT_IMPORT_FORMAT,
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  type ImportFormat,
} from "@/core/trajectories/formats";
import { countOf } from "@/features/shared/lib/countOf";
import type { QueuedUpload } from "@/server/trajectories/queueUpload";
import { useTRPC } from "@/trpc/react";

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

/** "2.4 MB", for the file about to be imported. */
function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A trajectory file, uploaded in one of the formats the importer reads, queued as an import job. Picking a file
 * only chooses it: the import starts with the button, so a wrong pick costs nothing.
 */
export function ImportForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>(DEFAULT_IMPORT_FORMAT);
  const [chosen, setChosen] = useState<File | null>(null);
  const importMutation = useMutation({
    mutationFn: ({ file, format }: { file: File; format: ImportFormat }) => uploadFile(file, format),
    onSuccess: (data) => {
      setError(null);
      setChosen(null);
      setNotice(
        `Queued an import of ${countOf(data.trajectories, "trajectory", "trajectories")}${data.format === "dreamgym" ? "" : ` (read as ${IMPORT_FORMAT_LABELS[data.format]})`}.`,
      );
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() });
    },
    onError: (e) => {
      setNotice(null);
      setChosen(null);
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
        style={{ maxWidth: "100%" }}
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          // Cleared, so that picking the same file again (after fixing it) is a change the page sees. The File
          // keeps its contents.
          input.value = "";
          setNotice(null);
          setError(null);
          setChosen(file);
        }}
      />
      {chosen ? (
        <div className="row" style={{ marginTop: 8 }}>
          <span className="mono" data-testid="import-chosen" style={{ overflowWrap: "anywhere" }}>
            {chosen.name} · {sizeOf(chosen.size)}
          </span>
          <button
            type="button"
            className="primary"
            disabled={importMutation.isPending}
            onClick={() => importMutation.mutate({ file: chosen, format })}
          >
            {importMutation.isPending ? "Importing…" : "Import"}
          </button>
          <button type="button" disabled={importMutation.isPending} onClick={() => setChosen(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {notice ? <p data-testid="import-notice">{notice}</p> : null}
      {error ? (
        <div className="error" data-testid="import-error">
          {error}
        </div>
      ) : null}
    </section>
  );
}
