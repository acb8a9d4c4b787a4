import type { ComponentType } from 'react';
import { CommunityGuidelines } from './community-guidelines';
import { PrivacyPolicy } from './privacy-policy';
import { TermsOfService } from './terms-of-service';

export interface LegalDocument {
  /** The section anchor on /legal (e.g. /legal#terms). */
  id: 'terms' | 'privacy' | 'community';
  title: string;
  /** The key points, shown on the terms-acceptance screen. */
  summary: string[];
  Content: ComponentType;
}

export const LEGAL_DOCUMENTS: LegalDocument[] = [
  {
    id: 'terms',
    title: 'Terms of Service',
    summary: [
      'You keep ownership of the photos you upload and give us a licence to display them on Snap Cracks.',
      'No explicit, harmful or offensive content.',
      'All content is moderated: moderators may approve, reject, request changes or remove it.',
      'Photos are visible in the gallery only once approved.',
      'You can rate photos from 1 to 5 stars and change your vote at any time.',
    ],
    Content: TermsOfService,
  },
  {
    id: 'privacy',
    title: 'Privacy Policy',
    summary: [
      'We use your name, email address and profile picture from your identity provider to run your account.',
      'Your email address is never shown publicly.',
      'We do not sell your personal information.',
      'You can edit or delete your photos and ask us to delete your account.',
    ],
    Content: PrivacyPolicy,
  },
  {
    id: 'community',
    title: 'Community Guidelines',
    summary: [
      'Share your own photos of unexpected cracks and keep it friendly.',
      'Cover faces and number plates with privacy bars.',
      'Vote fairly: one vote per photo, no manipulation.',
      'Violations can lead to content removal, warnings, temporary or permanent suspension and reports to the authorities.',
    ],
    Content: CommunityGuidelines,
  },
];
