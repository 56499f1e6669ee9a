import clsx from 'clsx';
import { DEFAULT_AVATAR_URL } from '#shared/constants';

export const Avatar = ({
  src,
  name,
  size = 36,
  className,
}: {
  src: string | null | undefined;
  name: string;
  size?: number;
  className?: string;
}) => (
  <img
    src={src || DEFAULT_AVATAR_URL}
    alt={name}
    width={size}
    height={size}
    onError={(e) => {
      if (!e.currentTarget.src.endsWith(DEFAULT_AVATAR_URL)) e.currentTarget.src = DEFAULT_AVATAR_URL;
    }}
    className={clsx('shrink-0 rounded-full bg-surface-2 object-cover', className)}
    style={{ width: size, height: size }}
  />
);
