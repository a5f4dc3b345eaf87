-- AlterTable
ALTER TABLE "Annotation" ADD COLUMN "jobId" TEXT;

-- CreateIndex
CREATE INDEX "Annotation_jobId_idx" ON "Annotation"("jobId");

