-- CreateTable
CREATE TABLE "RemoteDomain" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "spec" JSONB NOT NULL,
    "token" TEXT,
    "healthOk" BOOLEAN,
    "healthMessage" TEXT,
    "healthAt" DATETIME,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
