-- AlterTable
ALTER TABLE "Annotation" ADD COLUMN "correctedNextState" TEXT;
ALTER TABLE "Annotation" ADD COLUMN "correctedReward" REAL;
ALTER TABLE "Annotation" ADD COLUMN "correctedDone" BOOLEAN;
ALTER TABLE "Annotation" ADD COLUMN "assignees" JSONB;

-- AlterTable
ALTER TABLE "AnnotationEvent" ADD COLUMN "diff" JSONB;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "notes" TEXT;
ALTER TABLE "Run" ADD COLUMN "tags" JSONB;
ALTER TABLE "Run" ADD COLUMN "fidelity" JSONB;
ALTER TABLE "Run" ADD COLUMN "trust" JSONB;
ALTER TABLE "Run" ADD COLUMN "createdBy" TEXT;

-- CreateTable
CREATE TABLE "AnnotationDraft" (
    "annotationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "draft" JSONB NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("annotationId", "author"),
    CONSTRAINT "AnnotationDraft_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnnotationReview" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "annotationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "reasoning" TEXT,
    "nextState" TEXT,
    "reward" REAL,
    "done" BOOLEAN,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AnnotationReview_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "detail" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "RegressionCheck" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "label" TEXT NOT NULL,
    "model" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "jobId" TEXT,
    "fidelity" JSONB,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "RegressionCase" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "checkId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "expected" JSONB NOT NULL,
    "predicted" JSONB NOT NULL,
    "nextStateOk" BOOLEAN NOT NULL,
    "rewardOk" BOOLEAN NOT NULL,
    "doneOk" BOOLEAN NOT NULL,
    CONSTRAINT "RegressionCase_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "RegressionCheck" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AnnotationReview_author_idx" ON "AnnotationReview"("author");

-- CreateIndex
CREATE UNIQUE INDEX "AnnotationReview_annotationId_author_key" ON "AnnotationReview"("annotationId", "author");

-- CreateIndex
CREATE INDEX "AuditLog_createdAt_idx" ON "AuditLog"("createdAt");

-- CreateIndex
CREATE INDEX "RegressionCheck_createdAt_idx" ON "RegressionCheck"("createdAt");

-- CreateIndex
CREATE INDEX "RegressionCase_stepId_idx" ON "RegressionCase"("stepId");

-- CreateIndex
CREATE UNIQUE INDEX "RegressionCase_checkId_stepId_key" ON "RegressionCase"("checkId", "stepId");

