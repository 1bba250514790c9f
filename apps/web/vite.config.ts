import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // The live map's online base-map style; read at build time (default: OpenFreeMap, keyless).
  define: { 'import.meta.env.VITE_MAP_STYLE_URL': JSON.stringify(process.env.MAP_STYLE_URL ?? '') },
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
