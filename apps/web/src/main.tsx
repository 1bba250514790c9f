import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** Minimal page until the web shell lands: proves the build and the server's SPA serving. */
function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 480, margin: '15vh auto', padding: 24 }}>
      <h1>Fleetline</h1>
      <p>Fleet management and driver hours of service. The API is documented at <a href="/api/docs">/api/docs</a>.</p>
    </main>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
