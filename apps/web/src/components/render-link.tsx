import type { ReactElement } from 'react';

/**
 * How a screen shared by the app and the sign-in page's own bundle renders a link to `to`, for a
 * Mantine component's renderRoot: the router's Link inside the app, a plain anchor on the sign-in
 * page, which has no router (issue 67).
 */
// Mantine types renderRoot's props as any: they are the component's own, spread onto the root.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RenderLink = (to: string) => (props: any) => ReactElement;

export const plainLink: RenderLink = (to) =>
  function PlainLink(props) {
    return <a href={to} {...props} />;
  };
