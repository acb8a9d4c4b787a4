import { prismaCliConfig } from '@snapcracks/kit/prisma-config';

export default prismaCliConfig();
