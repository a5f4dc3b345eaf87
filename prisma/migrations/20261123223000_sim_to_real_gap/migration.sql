-- AlterTable
ALTER TABLE "RunMetric" ADD COLUMN "realReward" REAL;
ALTER TABLE "RunMetric" ADD COLUMN "simSuccess" REAL;
ALTER TABLE "RunMetric" ADD COLUMN "simReward" REAL;
