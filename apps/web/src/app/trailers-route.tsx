import { AssetsListPage } from '../features/assets/assets-list-page.tsx';
import { AssetCompliance } from '../features/compliance/asset-compliance.tsx';

// Trailers (`.../trailers`, `.../trailer-add`) composed here, since a feature never imports another
// (docs/style.md §10): the assets feature's list and detail with the compliance feature's papers (issue 71).
export default function TrailersRoute() {
  return <AssetsListPage type="TRAILER" compliance={AssetCompliance} />;
}
