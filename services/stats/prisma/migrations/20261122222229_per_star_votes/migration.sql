-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "stars_1" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stars_2" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stars_3" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stars_4" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stars_5" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stars_baseline" BIGINT NOT NULL DEFAULT 0;


-- Photos projected before this migration start with no star counts (stars_baseline 0) while their totals are known:
-- run `pnpm stats:rebuild` once after deploying it, which reads every photo's votes per rating from the vote service.
