import { cn } from '../../lib/utils';

export function initials(name: string | null | undefined) {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return 'U';
  return ((parts[0][0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

/** Photo when there is one, otherwise the initials of the full name. */
export function UserAvatar({
  user,
  className,
}: {
  user: { full_name: string | null; profile_image_url: string | null };
  className?: string;
}) {
  return (
    <span
      className={cn(
        'relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary/10 font-medium text-primary',
        className,
      )}
    >
      {user.profile_image_url ? (
        <img src={user.profile_image_url} alt={`${user.full_name || 'User'}'s profile photo`} className="size-full object-cover" />
      ) : (
        <span aria-hidden="true">{initials(user.full_name)}</span>
      )}
    </span>
  );
}
