// VitePress configuration of the documentation site (`npm run docs` builds it into site/ through
// build/docs/build-site.ts, which first generates docs/reference/*.md and docs/reference/api/ from the code).
import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type DefaultTheme } from 'vitepress';

const apiSidebarFile = new URL('../reference/api/typedoc-sidebar.json', import.meta.url);
/** TypeDoc's sidebar for the API pages (typedoc-vitepress-theme), absent until build-site.ts has run TypeDoc. */
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? JSON.parse(readFileSync(apiSidebarFile, 'utf8')) : [];

const tutorials: DefaultTheme.SidebarItem = {
  text: 'Tutorials',
  items: [
    { text: 'Your first character on a page', link: '/tutorials/first-character' },
    { text: 'A crowd of a thousand', link: '/tutorials/crowd-of-a-thousand' },
    { text: 'Clips from another file', link: '/tutorials/clips-from-another-file' },
    { text: 'A character that follows the cursor', link: '/tutorials/follow-the-cursor' },
  ],
};

const guides: DefaultTheme.SidebarItem = {
  text: 'How-to guides',
  items: [
    { text: 'Install and set up', link: '/guide/install' },
    { text: 'Embed a character', link: '/guide/embedding' },
    { text: 'Play, pause and blend clips', link: '/guide/animation' },
    { text: 'Listen to events', link: '/guide/events' },
    { text: 'Place the camera', link: '/guide/camera' },
    { text: 'Light a model', link: '/guide/lighting' },
    { text: 'Add a contact shadow', link: '/guide/shadow' },
    { text: 'Hotspots', link: '/guide/hotspots' },
    { text: 'Picking', link: '/guide/picking' },
    { text: 'Attachments', link: '/guide/attachments' },
    { text: 'Clips from other files', link: '/guide/clips-from-files' },
    { text: 'Root motion', link: '/guide/root-motion' },
    { text: 'Make a character act: animation graphs', link: '/guide/animation-graph' },
    { text: 'Inverse kinematics', link: '/guide/ik' },
    { text: 'Morph targets', link: '/guide/morph-targets' },
    { text: 'VRM avatars', link: '/guide/vrm' },
    { text: 'Spring bones and node constraints', link: '/guide/spring-bones' },
    { text: 'MToon toon shading and outlines', link: '/guide/mtoon' },
    { text: 'Dual quaternion skinning', link: '/guide/dqs' },
    { text: 'Crowds', link: '/guide/crowds' },
    { text: 'Draw on your own canvas', link: '/guide/own-canvas' },
    { text: 'Large scenes', link: '/guide/large-scenes' },
    { text: 'Memory ceiling', link: '/guide/memory-ceiling' },
    { text: 'Files Sinew opens', link: '/guide/files' },
    { text: 'Limits and hostile files', link: '/guide/limits' },
    { text: 'Command line recipes', link: '/guide/cli' },
    { text: 'Bake retargeted clips into a file', link: '/guide/bake' },
    { text: 'Shrink animation with a bounded error', link: '/guide/optimize' },
    { text: 'Animated previews from the command line', link: '/guide/animated-previews' },
    { text: 'Record an animated preview in the page', link: '/guide/record-video' },
    { text: 'Coming from <model-viewer>', link: '/guide/coming-from-model-viewer' },
    { text: 'Screenshot-test your page', link: '/guide/screenshot-testing' },
    { text: 'The viewer app', link: '/guide/viewer-app' },
  ],
};

const reference: DefaultTheme.SidebarItem = {
  text: 'Reference',
  items: [
    { text: 'Overview', link: '/reference/' },
    { text: '<sinew-viewer>', link: '/reference/element' },
    { text: 'Attributes in detail', link: '/reference/element-attributes' },
    { text: 'sinew command', link: '/reference/cli' },
    { text: 'Load-error codes', link: '/reference/load-error-codes' },
    { text: 'Viewer shortcuts', link: '/reference/shortcuts' },
    { text: 'Performance figures', link: '/reference/performance' },
    { text: 'Deprecated names', link: '/reference/deprecated' },
    { text: 'API', link: '/reference/api/', collapsed: true, items: apiSidebar },
  ],
};

const explanation: DefaultTheme.SidebarItem = {
  text: 'Explanation',
  items: [
    { text: 'How it works', link: '/explanation/how-it-works' },
    { text: 'Architecture', link: '/explanation/architecture' },
    { text: 'Skinning formulas', link: '/explanation/skinning-formulas' },
    { text: 'MToon toon shading', link: '/explanation/mtoon' },
    { text: 'Animation sampling', link: '/explanation/animation-sampling' },
    { text: 'Animation blending', link: '/explanation/animation-blending' },
    { text: 'How GPU = CPU is proven', link: '/explanation/gpu-equals-cpu' },
    { text: 'Performance method', link: '/explanation/performance' },
    { text: 'glTF compatibility', link: '/explanation/compatibility' },
    { text: 'Load errors', link: '/explanation/load-errors' },
  ],
};

export default defineConfig({
  title: 'Sinew',
  description: 'WebGL2 GPU skinning for the web: <sinew-viewer>, crowds, and a CPU reference the GPU is proven equal to.',
  outDir: '../site',
  cleanUrls: false,
  // The gallery's sources (docs/examples/) are built by build/docs/build-examples.ts, not by VitePress.
  srcExclude: ['examples/**'],
  // Pages built outside VitePress (site/examples/ by build-examples.ts, site/viewer/ by vite): exactly those.
  // Guides link their gallery pages as /examples/NAME.html (linkinator checks them in the built site, `npm run docs:links`).
  ignoreDeadLinks: [
    /^\/examples\/(index\.html)?$/, /^\/examples\/credits(\.html)?$/, /^\/viewer\/(index\.html)?$/,
    /^\/examples\/[a-z0-9-]+(\.html)?$/,
  ],
  themeConfig: {
    nav: [
      { text: 'Tutorials', link: '/tutorials/first-character' },
      { text: 'Guides', link: '/guide/embedding' },
      { text: 'Reference', link: '/reference/' },
      { text: 'Explanation', link: '/explanation/how-it-works' },
      { text: 'Examples', link: '/examples/', target: '_self' },
      { text: 'Viewer', link: '/viewer/', target: '_self' },
    ],
    sidebar: [tutorials, guides, reference, explanation],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    footer: { message: 'MIT licence. Model credits: <a href="/examples/credits.html" target="_self">examples/credits</a>.' },
  },
});
