import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAdminPhoto } from '@/test/fixtures';
import { AdminReviewView } from './admin-review-view';

function show(photo: ReturnType<typeof makeAdminPhoto>) {
  render(<AdminReviewView photos={[photo]} photo={photo} onNavigate={vi.fn()} onClose={vi.fn()} onApprove={vi.fn()} onRequestReject={vi.fn()} />);
}

describe('the review view says why a photo is back', () => {
  it('a resubmission: the earlier reason and the uploader’s note', () => {
    show(
      makeAdminPhoto({
        resubmission: {
          resubmittedAt: '2026-11-28T10:00:00.000Z',
          note: 'Covered the face',
          previousRejectionReason: 'A face is visible.',
          descriptionBefore: 'Crack 1',
          privacyBarsBefore: [],
        },
      }),
    );
    expect(screen.getByText('Resubmitted · Rejected because: “A face is visible.” · The uploader says: “Covered the face”')).toBeInTheDocument();
  });

  it('a photo members reported back into review', () => {
    show(makeAdminPhoto({ underReview: true }));
    expect(screen.getByText(/Members reported this approved photo/)).toBeInTheDocument();
  });

  it('nothing for a new upload, or a photo already decided', () => {
    show(makeAdminPhoto({ status: 'approved', underReview: false }));
    expect(screen.queryByText(/Resubmitted|Members reported/)).toBeNull();
  });
});
