-- CreateTable
CREATE TABLE "RemoteDomain" (
    "name" TEXT NOT NULL,
    "spec" JSONB NOT NULL,
    "token" TEXT,
    "healthOk" BOOLEAN,
    "healthMessage" TEXT,
    "healthAt" TIMESTAMP(3),
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RemoteDomain_pkey" PRIMARY KEY ("name")
);

