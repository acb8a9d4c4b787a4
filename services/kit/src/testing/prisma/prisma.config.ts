import { prismaCliConfig } from '../../prisma-config.js';

export default prismaCliConfig({ schema: 'schema.prisma' });
