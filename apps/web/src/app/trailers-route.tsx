import { AssetsListPage } from '../features/assets/assets-list-page.tsx';
import { AssetCompliance } from '../features/compliance/asset-compliance.tsx';
import { TrailerTemperaturesSection } from '../features/temperatures/trailer-temperatures-section.tsx';

// Trailers (`.../trailers`, `.../trailer-add`) composed here, since a feature never imports another
// (docs/style.md §10): the assets feature's list and detail with the compliance feature's papers (issue 71)
// and the temperatures feature's reefer sensors and chart (issue 73).
export default function TrailersRoute() {
  return <AssetsListPage type="TRAILER" compliance={AssetCompliance} temperatures={TrailerTemperaturesSection} />;
}
