-- External runs: episodes an outside trainer plays through the environment server.
-- AlterTable
ALTER TABLE "Run" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'worker';

-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN "episodeId" TEXT;
ALTER TABLE "Trajectory" ADD COLUMN "status" TEXT;
ALTER TABLE "Trajectory" ADD COLUMN "agentTokens" INTEGER;

-- AlterTable
ALTER TABLE "Step" ADD COLUMN "logprob" REAL;
ALTER TABLE "Step" ADD COLUMN "agentTokens" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_episodeId_key" ON "Trajectory"("episodeId");
