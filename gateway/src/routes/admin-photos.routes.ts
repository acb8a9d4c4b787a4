import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { Clients } from '../clients.js';
import { photoIdParams, photoJson, toPhotoJson } from '../photo-json.js';

const reviewBody = z.object({
  status: z.enum(['approved', 'rejected'], { error: 'status must be "approved" or "rejected"' }),
  rejectionReason: z.string().max(500, 'The reason must be 500 characters or less').nullish(),
});

/** The review decision and deletion; the moderation service checks the admin flag and keeps the audit log. */
export default async function adminPhotoRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const route = app.withTypeProvider<ZodTypeProvider>();

  route.patch('/api/admin/photos/:id/status', { schema: { params: photoIdParams, body: reviewBody, response: { 200: photoJson } } }, async (request) => {
    const caller = await request.requireAdmin();
    const { status, rejectionReason } = request.body;
    const { photo } = await clients.moderation.call.reviewPhoto(
      {
        photoId: request.params.id,
        status: status === 'approved' ? PhotoStatus.PHOTO_STATUS_APPROVED : PhotoStatus.PHOTO_STATUS_REJECTED,
        ...(rejectionReason != null ? { rejectionReason } : {}),
      },
      { caller },
    );
    if (!photo) throw new Error('The moderation service answered without a photo');
    return toPhotoJson(photo);
  });

  route.delete('/api/admin/photos/:id', { schema: { params: photoIdParams } }, async (request, reply) => {
    const caller = await request.requireAdmin();
    await clients.moderation.call.deletePhoto({ photoId: request.params.id }, { caller });
    return reply.code(204).send();
  });
}
