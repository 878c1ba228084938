-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "verified" BOOLEAN;
