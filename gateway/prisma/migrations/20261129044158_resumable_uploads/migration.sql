-- CreateTable
CREATE TABLE "resumable_uploads" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "length" INTEGER NOT NULL,
    "offset" INTEGER NOT NULL DEFAULT 0,
    "filename" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "photo_id" BIGINT,
    "photo_filename" TEXT,

    CONSTRAINT "resumable_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resumable_upload_parts" (
    "upload_id" TEXT NOT NULL,
    "start" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "resumable_upload_parts_pkey" PRIMARY KEY ("upload_id","start")
);

-- CreateIndex
CREATE INDEX "resumable_uploads_user_id_idx" ON "resumable_uploads"("user_id");

-- CreateIndex
CREATE INDEX "resumable_uploads_expires_at_idx" ON "resumable_uploads"("expires_at");

-- AddForeignKey
ALTER TABLE "resumable_upload_parts" ADD CONSTRAINT "resumable_upload_parts_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "resumable_uploads"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The offset never passes the length, whatever a writer does.
ALTER TABLE "resumable_uploads" ADD CONSTRAINT "resumable_uploads_offset_within_length" CHECK ("offset" >= 0 AND "offset" <= "length");

-- Image bytes do not compress: kept out of line without trying.
ALTER TABLE "resumable_upload_parts" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
