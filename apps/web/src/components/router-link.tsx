import { Link } from 'react-router';
import type { RenderLink } from './render-link.tsx';

/** A RenderLink inside the app: the router's Link, so the page does not reload. */
export const routerLink: RenderLink = (to) =>
  function RouterLink(props) {
    return <Link to={to} {...props} />;
  };
