import { ComingSoonPage } from '@/components/coming-soon';

export function UploadPage() {
  return (
    <ComingSoonPage
      title="Snap a Crack"
      description="Upload a photo of a crack you found, hide private details and share it with the community."
    />
  );
}
