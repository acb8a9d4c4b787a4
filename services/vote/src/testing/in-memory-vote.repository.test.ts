import { InMemoryVoteRepository } from './in-memory-vote.repository.js';
import { describeVoteRepositoryContract } from './vote.repository.contract.js';

let repository: InMemoryVoteRepository;
describeVoteRepositoryContract('InMemoryVoteRepository', {
  repository: () => (repository = new InMemoryVoteRepository()),
  votablePhotos: () => repository.votablePhotos,
  voters: () => repository.voters,
  eventTypes: async () => repository.events.map((e) => e.type),
});
