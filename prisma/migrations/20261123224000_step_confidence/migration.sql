-- AlterTable
ALTER TABLE "Step" ADD COLUMN "confidence" REAL;
ALTER TABLE "Step" ADD COLUMN "confidenceParts" JSONB;
ALTER TABLE "Step" ADD COLUMN "pessimism" TEXT;
ALTER TABLE "Step" ADD COLUMN "predictedReward" REAL;

