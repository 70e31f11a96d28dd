// Builds the panel into one self-contained file, dist/index.html, which
// uiasset.go embeds. dist/ is not emptied: it keeps the committed .gitkeep
// that go:embed needs when the panel has not been built.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig({
  plugins: [viteSingleFile()],
  build: { outDir: 'dist', emptyOutDir: false, modulePreload: { polyfill: false }, assetsInlineLimit: 100000000, cssCodeSplit: false },
});
