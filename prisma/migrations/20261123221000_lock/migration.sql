-- CreateTable
CREATE TABLE "Lock" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "until" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

