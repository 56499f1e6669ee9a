import { forwardRef, type AnchorHTMLAttributes } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To; replace?: boolean; state?: unknown };

/**
 * A link inside the app: a real `<a href>` whose plain clicks navigate without reloading the page
 * (modified clicks, other targets and downloads stay the browser's). React Router's own `Link` also
 * carries its route-module prefetching and server-component code, which the declarative router never
 * uses but every page would load (about 2 KB gzip of the entry chunk). Built from the router's
 * public hooks (`useHref`, `useLinkClickHandler`), as its documentation shows for custom links.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, target, onClick, ...rest },
  ref,
) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target });
  return (
    <a
      {...rest}
      ref={ref}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
});
