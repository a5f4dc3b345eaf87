-- AlterTable
ALTER TABLE "Step" ADD COLUMN "flagAuthor" TEXT;
ALTER TABLE "Step" ADD COLUMN "flagCategory" TEXT;

