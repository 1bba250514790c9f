import LoadPage from '../features/dispatch/load-page.tsx';
import { LoadMessages } from '../features/messages/message-panels.tsx';

// A load's page (/dispatch/loads/:id) composed here, since a feature never imports another (docs/style.md
// §10): the dispatch feature's page with the messages feature's conversation about the load (issue 44).
export default function DispatchLoadPage() {
  return <LoadPage messages={LoadMessages} />;
}
