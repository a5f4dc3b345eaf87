-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "split" TEXT NOT NULL DEFAULT 'train',
    "origin" TEXT NOT NULL DEFAULT 'seed',
    "goal" JSONB,
    "parentId" TEXT,
    "generation" INTEGER NOT NULL DEFAULT 0,
    "runId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Trajectory" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT 'data',
    "policy" TEXT,
    "runId" TEXT,
    "iteration" INTEGER,
    "group" INTEGER,
    "totalReward" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "success" BOOLEAN NOT NULL DEFAULT false,
    "length" INTEGER NOT NULL DEFAULT 0,
    "importKey" TEXT,
    "importName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "episodeId" TEXT,
    "status" TEXT,
    "agentTokens" INTEGER,

    CONSTRAINT "Trajectory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Step" (
    "id" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "stateActions" JSONB,
    "action" TEXT NOT NULL,
    "reasoning" TEXT,
    "nextState" TEXT NOT NULL,
    "nextActions" JSONB,
    "reward" DOUBLE PRECISION NOT NULL,
    "done" BOOLEAN NOT NULL,
    "success" BOOLEAN NOT NULL DEFAULT false,
    "valid" BOOLEAN NOT NULL DEFAULT true,
    "realNextState" TEXT,
    "realReward" DOUBLE PRECISION,
    "realDone" BOOLEAN,
    "realValid" BOOLEAN,
    "neighbourIds" JSONB,
    "model" TEXT,
    "latencyMs" DOUBLE PRECISION,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "raw" TEXT,
    "parseError" TEXT,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "flagNote" TEXT,
    "flaggedAt" TIMESTAMP(3),
    "indexedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "flagAuthor" TEXT,
    "flagCategory" TEXT,
    "confidence" DOUBLE PRECISION,
    "confidenceParts" JSONB,
    "pessimism" TEXT,
    "predictedReward" DOUBLE PRECISION,
    "logprob" DOUBLE PRECISION,
    "agentTokens" INTEGER,

    CONSTRAINT "Step_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Annotation" (
    "id" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "teacher" TEXT NOT NULL,
    "teacherText" TEXT NOT NULL,
    "correction" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "author" TEXT,
    "lockedBy" TEXT,
    "lockExpiresAt" TIMESTAMP(3),
    "reviewedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "jobId" TEXT,

    CONSTRAINT "Annotation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationEvent" (
    "id" TEXT NOT NULL,
    "annotationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "iteration" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "realTransitions" INTEGER NOT NULL DEFAULT 0,
    "syntheticTransitions" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "kind" TEXT NOT NULL DEFAULT 'worker',

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Checkpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunMetric" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "syntheticSuccess" DOUBLE PRECISION,
    "realSuccess" DOUBLE PRECISION,
    "meanReward" DOUBLE PRECISION,
    "realTransitions" INTEGER NOT NULL DEFAULT 0,
    "syntheticTransitions" INTEGER NOT NULL DEFAULT 0,
    "extra" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "realReward" DOUBLE PRECISION,
    "simSuccess" DOUBLE PRECISION,
    "simReward" DOUBLE PRECISION,

    CONSTRAINT "RunMetric_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskStat" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "taskId" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "meanReward" DOUBLE PRECISION NOT NULL,
    "variance" DOUBLE PRECISION NOT NULL,
    "successRate" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "TaskStat_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedBy" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "message" TEXT,
    "error" TEXT,
    "result" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "crashes" INTEGER NOT NULL DEFAULT 0,
    "crashPoint" TEXT,
    "crashStreak" INTEGER NOT NULL DEFAULT 0,
    "leaseToken" TEXT,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Lock" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lock_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "Task_domain_split_idx" ON "Task"("domain", "split");

-- CreateIndex
CREATE INDEX "Task_parentId_idx" ON "Task"("parentId");

-- CreateIndex
CREATE INDEX "Task_runId_idx" ON "Task"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_importKey_key" ON "Trajectory"("importKey");

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_episodeId_key" ON "Trajectory"("episodeId");

-- CreateIndex
CREATE INDEX "Trajectory_domain_source_idx" ON "Trajectory"("domain", "source");

-- CreateIndex
CREATE INDEX "Trajectory_runId_iteration_idx" ON "Trajectory"("runId", "iteration");

-- CreateIndex
CREATE INDEX "Trajectory_taskId_idx" ON "Trajectory"("taskId");

-- CreateIndex
CREATE INDEX "Step_flagged_idx" ON "Step"("flagged");

-- CreateIndex
CREATE INDEX "Step_indexedAt_idx" ON "Step"("indexedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Step_trajectoryId_index_key" ON "Step"("trajectoryId", "index");

-- CreateIndex
CREATE INDEX "Annotation_jobId_idx" ON "Annotation"("jobId");

-- CreateIndex
CREATE INDEX "Annotation_status_idx" ON "Annotation"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Annotation_stepId_teacher_key" ON "Annotation"("stepId", "teacher");

-- CreateIndex
CREATE INDEX "AnnotationEvent_annotationId_idx" ON "AnnotationEvent"("annotationId");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Checkpoint_runId_iteration_key" ON "Checkpoint"("runId", "iteration");

-- CreateIndex
CREATE UNIQUE INDEX "RunMetric_runId_iteration_key" ON "RunMetric"("runId", "iteration");

-- CreateIndex
CREATE INDEX "TaskStat_runId_taskId_idx" ON "TaskStat"("runId", "taskId");

-- CreateIndex
CREATE UNIQUE INDEX "TaskStat_runId_iteration_taskId_key" ON "TaskStat"("runId", "iteration", "taskId");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Task"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Step" ADD CONSTRAINT "Step_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "Step"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationEvent" ADD CONSTRAINT "AnnotationEvent_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Checkpoint" ADD CONSTRAINT "Checkpoint_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunMetric" ADD CONSTRAINT "RunMetric_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskStat" ADD CONSTRAINT "TaskStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskStat" ADD CONSTRAINT "TaskStat_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

