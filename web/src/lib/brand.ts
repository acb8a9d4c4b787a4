import { uploadedFileUrl } from './api';

/**
 * Where the gateway serves the brand images (SPEC §7): the icon with the uploads, the header under
 * /uploads/. Both files live in web/public/brand/ and ship in web/dist/brand/.
 */
export const BRAND_ICON_URL = uploadedFileUrl('snapcracks-icon.svg');
export const HEADER_IMAGE_URL = '/uploads/snapcracks-header.svg';
