// Builds the test host into one file, host/dist/index.html, which the
// harness loads with page.setContent: the browser test fetches nothing.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  plugins: [viteSingleFile()],
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 100000000 },
});
