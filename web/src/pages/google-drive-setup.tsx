import { ComingSoonPage } from '@/components/coming-soon';

export function GoogleDriveSetupPage() {
  return (
    <ComingSoonPage
      title="Google Drive Setup"
      description="Connect cloud storage for photos by generating a refresh token for the server."
    />
  );
}
