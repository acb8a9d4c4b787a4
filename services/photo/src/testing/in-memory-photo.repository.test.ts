import { InMemoryPhotoRepository } from './in-memory-photo.repository.js';
import { describePhotoRepositoryContract } from './photo.repository.contract.js';

let repository: InMemoryPhotoRepository;
describePhotoRepositoryContract('InMemoryPhotoRepository', {
  repository: () => (repository = new InMemoryPhotoRepository()),
  uploaders: () => repository.uploaders,
  eventTypes: async () => repository.eventTypes(),
});
