import { InMemoryModerationActionRepository } from './in-memory-moderation-action.repository.js';
import { describeModerationActionRepositoryContract } from './moderation-action.repository.contract.js';

describeModerationActionRepositoryContract('InMemoryModerationActionRepository', {
  repository: () => new InMemoryModerationActionRepository(),
});
