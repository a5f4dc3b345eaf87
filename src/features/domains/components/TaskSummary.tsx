import type { Domain, RemoteDomain } from "../types";

const range = (r: { first: number; count: number }) =>
  r.count === 1 ? `number ${r.first}` : `numbers ${r.first}–${r.first + r.count - 1}`;

/** What tasks a domain has: the app's own, a remote environment's registered ranges, or an import's logged ones. */
export function TaskSummary({ domain, remote }: { domain: Domain; remote: RemoteDomain | undefined }) {
  if (domain.kind === "built-in")
    return (
      <p className="hint" style={{ margin: 0 }}>
        Tasks: the environment's own train and test tasks
      </p>
    );
  if (remote)
    return (
      <p style={{ margin: 0 }} data-testid="domain-tasks">
        Tasks: {remote.tasks.train.count} train ({range(remote.tasks.train)}) · {remote.tasks.test.count} test
        ({range(remote.tasks.test)})
      </p>
    );
  return (
    <>
      <p style={{ margin: 0 }} data-testid="domain-tasks">
        Tasks with logs: {domain.trainTasks ?? 0} train · {domain.testTasks ?? 0} test
      </p>
      {domain.reason ? (
        <p className="hint" style={{ margin: 0 }}>
          Cannot be trained on: it {domain.reason}
        </p>
      ) : null}
    </>
  );
}
