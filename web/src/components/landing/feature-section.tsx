import { Camera, ShieldCheck, Star, type LucideIcon } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';

const FEATURES: { icon: LucideIcon; title: string; description: string }[] = [
  {
    icon: Camera,
    title: 'Easy Upload',
    description: 'Snap a photo with your camera or pick one from your gallery, and share it in seconds.',
  },
  {
    icon: Star,
    title: 'Community Voting',
    description: 'Rate every crack with our 5-star system and see which snaps the community loves most.',
  },
  {
    icon: ShieldCheck,
    title: 'Moderated Content',
    description: 'Every photo is reviewed by our admin team before it appears, keeping the gallery safe and fun.',
  },
];

export function FeatureSection() {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
        How Snap Cracks works
      </h2>
      <div className="mt-10 grid grid-cols-1 gap-6 md:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, description }) => (
          <Card key={title} className="transition-shadow hover:shadow-md">
            <CardContent className="flex flex-col items-center gap-3 pt-6 text-center">
              <div className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
                <Icon className="size-6" aria-hidden="true" />
              </div>
              <h3 className="text-lg font-semibold">{title}</h3>
              <p className="text-muted-foreground">{description}</p>
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
