import { InMemoryUserRepository } from './in-memory-user.repository.js';
import { describeUserRepositoryContract } from './user.repository.contract.js';

let repository: InMemoryUserRepository;
describeUserRepositoryContract('InMemoryUserRepository', {
  repository: () => (repository = new InMemoryUserRepository()),
  eventTypes: async () => repository.eventTypes(),
});
