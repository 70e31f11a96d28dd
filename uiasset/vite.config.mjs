// Builds the panel into one self-contained file, dist/index.html, which is
// committed and which uiasset.go embeds (make panel). The output depends on
// nothing but the source and the locked packages: TestEmbeddedPanelIsAFreshBuildOfItsSource
// rebuilds it elsewhere (--outDir) and compares byte for byte.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig({
  plugins: [viteSingleFile()],
  build: { outDir: 'dist', emptyOutDir: false, modulePreload: { polyfill: false }, assetsInlineLimit: 100000000, cssCodeSplit: false },
});
