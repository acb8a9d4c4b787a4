import { InMemoryVoteRepository } from './in-memory-vote.repository.js';
import { describeVoteRepositoryContract } from './vote.repository.contract.js';

let repository: InMemoryVoteRepository;
describeVoteRepositoryContract('InMemoryVoteRepository', {
  repository: () => (repository = new InMemoryVoteRepository()),
  votablePhotos: () => repository.votablePhotos,
  eventTypes: async () => repository.events.map((e) => e.type),
});
