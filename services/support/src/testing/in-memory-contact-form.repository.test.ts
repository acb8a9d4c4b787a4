import { InMemoryContactFormRepository } from './in-memory-contact-form.repository.js';
import { describeContactFormRepositoryContract } from './contact-form.repository.contract.js';

let repository: InMemoryContactFormRepository;
describeContactFormRepositoryContract('InMemoryContactFormRepository', {
  repository: () => (repository = new InMemoryContactFormRepository()),
  events: async () => repository.events,
});
