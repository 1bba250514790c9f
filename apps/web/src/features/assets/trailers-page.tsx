import { AssetsListPage } from './assets-list-page.tsx';

/** `.../trailers` and `.../trailer-add` (opens the add form), spec section 2. */
export default function TrailersPage() {
  return <AssetsListPage type="TRAILER" />;
}
