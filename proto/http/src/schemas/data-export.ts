import { z } from 'zod';
import { DATA_EXPORT } from '../rules.js';
import { timestamp } from '../fields.js';

export const dataExportStatus = z
  .enum(DATA_EXPORT.statuses)
  .meta({
    id: 'DataExportStatus',
    description: '`queued` and `running` while it is made; `ready` to download until `expiresAt`; `failed` with its `error`; `expired` once the file is gone.',
  });

/** A member's copy of their data, as they see it: never anyone else's. */
export const dataExport = z
  .object({
    id: z.string(),
    status: dataExportStatus,
    progress: z.number().int().min(0).max(100).meta({ description: 'Percent of the files written.' }),
    step: z.string().nullable().meta({ description: 'What is being gathered now, in words to show.' }),
    size: z.number().int().nullable().meta({ description: 'Bytes of the zip, once ready.' }),
    error: z.string().nullable().meta({ description: 'Why it failed, in words to show.' }),
    createdAt: timestamp,
    finishedAt: timestamp,
    expiresAt: timestamp.meta({ description: 'When a ready copy is deleted.' }),
    downloadUrl: z.string().nullable().meta({ description: 'Where to download it while it is ready.' }),
  })
  .meta({ id: 'DataExport' });

/** The member's latest copy, or null before they ask for one. */
export const latestDataExport = dataExport.nullable().meta({ id: 'LatestDataExport' });
