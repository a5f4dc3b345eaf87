"use client";

import { Allowed } from "@/features/auth/components/Allowed";
import { BufferPanel } from "./BufferPanel";
import { CollectForm } from "./CollectForm";
import { ImportForm } from "./ImportForm";
import { ImportsPanel } from "./ImportsPanel";
import { JobsTable } from "./JobsTable";

/** Getting data in (imports, offline collection), the replay buffer, the imports, and every job's status. */
export function JobsPage() {
  return (
    <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 14 }}>
      <div
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 300px), 1fr))",
          gap: 14,
        }}
      >
        <Allowed permission="data:import" explain="import trajectories">
          <ImportForm />
        </Allowed>
        <Allowed permission="data:collect" explain="collect offline data">
          <CollectForm />
        </Allowed>
        <BufferPanel />
      </div>
      <ImportsPanel />
      <JobsTable />
    </div>
  );
}
