import LoadPage from '../features/dispatch/load-page.tsx';
import { LoadMessages } from '../features/messages/message-panels.tsx';
import { LoadTemperaturesCard } from '../features/temperatures/load-temperatures-card.tsx';

// A load's page (/dispatch/loads/:id) composed here, since a feature never imports another (docs/style.md
// §10): the dispatch feature's page with the messages feature's conversation about the load (issue 44)
// and the temperatures feature's reefer chart, settings and log (issue 73).
export default function DispatchLoadPage() {
  return <LoadPage messages={LoadMessages} temperatures={LoadTemperaturesCard} />;
}
