-- AlterTable
ALTER TABLE "photo_votes" ADD COLUMN     "suspended" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "void_reason" TEXT,
ADD COLUMN     "voided_at" TIMESTAMPTZ(3),
ADD COLUMN     "voided_by" TEXT;

-- CreateTable
CREATE TABLE "vote_actions" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "admin_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "votes" INTEGER NOT NULL,
    "all_votes" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vote_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "voter_states" (
    "user_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "voter_states_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "rater_figures" (
    "user_id" TEXT NOT NULL,
    "votes" INTEGER NOT NULL,
    "voided" INTEGER NOT NULL,
    "suspended" INTEGER NOT NULL,
    "mean" DOUBLE PRECISION NOT NULL,
    "spread" DOUBLE PRECISION NOT NULL,
    "deviation" DOUBLE PRECISION,
    "longest_run" INTEGER NOT NULL,
    "bursts" INTEGER NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "last_vote_at" TIMESTAMPTZ(3) NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rater_figures_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "vote_actions_user_id_created_at_idx" ON "vote_actions"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "rater_figures_score_user_id_idx" ON "rater_figures"("score" DESC, "user_id");


ALTER TABLE "vote_actions" ADD CONSTRAINT "vote_actions_action_check" CHECK ("action" IN ('void', 'restore'));
