-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "alt_text" TEXT;

