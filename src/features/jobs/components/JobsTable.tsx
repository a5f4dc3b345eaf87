"use client";

import { useCan } from "@/features/auth/lib/useMe";
import { isActiveStatus, JobStatus } from "@/shared/enums";
import { useJobs } from "../lib/useJobs";

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

/** Every job with its status, progress, attempts and message or error; an active one can be cancelled. */
export function JobsTable() {
  const { jobs, cancel } = useJobs();
  const canCancel = useCan("job:cancel");
  return (
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
                <button type="button" disabled={job.cancelRequested} onClick={() => cancel(job.id)}>
                  {job.cancelRequested ? "cancelling…" : "Cancel"}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
