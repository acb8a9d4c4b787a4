import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import type { User } from '@/lib/types';
import { getAvatarInitial, getAvatarUrl } from '@/lib/user';
import { cn } from '@/lib/utils';

// Tailwind classes for the generated avatar; picked from the user id so a person keeps one colour.
const FALLBACK_COLORS = [
  'bg-orange-500 text-white',
  'bg-amber-500 text-amber-950',
  'bg-rose-500 text-white',
  'bg-sky-600 text-white',
  'bg-emerald-600 text-white',
  'bg-violet-600 text-white',
];

function colorFor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return FALLBACK_COLORS[hash % FALLBACK_COLORS.length] ?? FALLBACK_COLORS[0]!;
}

type AvatarUser = Pick<
  User,
  'id' | 'displayName' | 'firstName' | 'lastName' | 'email' | 'customProfileImage' | 'profileImageUrl'
>;

/**
 * The avatar rule of SPEC §3: uploaded image, else provider picture, else a generated initial.
 * Decorative: wherever it appears, the user's name is given next to it or by the surrounding control.
 */
export function UserAvatar({ user, className }: { user: AvatarUser; className?: string }) {
  const imageUrl = getAvatarUrl(user);
  return (
    <Avatar className={className}>
      {imageUrl && <AvatarImage src={imageUrl} alt="" />}
      <AvatarFallback className={cn(colorFor(user.id))} aria-hidden="true">
        {getAvatarInitial(user)}
      </AvatarFallback>
    </Avatar>
  );
}
