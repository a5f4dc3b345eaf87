-- AlterTable
ALTER TABLE "Job" ADD COLUMN "leaseToken" TEXT;
