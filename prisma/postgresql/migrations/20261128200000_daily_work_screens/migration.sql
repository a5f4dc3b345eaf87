-- AlterTable
ALTER TABLE "Annotation" ADD COLUMN     "assignees" JSONB,
ADD COLUMN     "correctedDone" BOOLEAN,
ADD COLUMN     "correctedNextState" TEXT,
ADD COLUMN     "correctedReward" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "AnnotationEvent" ADD COLUMN     "diff" JSONB;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "createdBy" TEXT,
ADD COLUMN     "fidelity" JSONB,
ADD COLUMN     "notes" TEXT,
ADD COLUMN     "tags" JSONB,
ADD COLUMN     "trust" JSONB;

-- CreateTable
CREATE TABLE "AnnotationDraft" (
    "annotationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "draft" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AnnotationDraft_pkey" PRIMARY KEY ("annotationId","author")
);

-- CreateTable
CREATE TABLE "AnnotationReview" (
    "id" TEXT NOT NULL,
    "annotationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "reasoning" TEXT,
    "nextState" TEXT,
    "reward" DOUBLE PRECISION,
    "done" BOOLEAN,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AnnotationReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "detail" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RegressionCheck" (
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "model" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "jobId" TEXT,
    "fidelity" JSONB,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "RegressionCheck_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RegressionCase" (
    "id" TEXT NOT NULL,
    "checkId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "expected" JSONB NOT NULL,
    "predicted" JSONB NOT NULL,
    "nextStateOk" BOOLEAN NOT NULL,
    "rewardOk" BOOLEAN NOT NULL,
    "doneOk" BOOLEAN NOT NULL,

    CONSTRAINT "RegressionCase_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "AnnotationDraft" ADD CONSTRAINT "AnnotationDraft_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationReview" ADD CONSTRAINT "AnnotationReview_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RegressionCase" ADD CONSTRAINT "RegressionCase_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "RegressionCheck"("id") ON DELETE CASCADE ON UPDATE CASCADE;

