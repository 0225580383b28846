/** Where the viewer page's links to the documentation site and its examples gallery go. */
export interface SiteLinks {
  /** The docs site's front page. */
  readonly docs: string;
  /** The examples gallery. */
  readonly examples: string;
}

/**
 * The docs and gallery links of the viewer page. The built site (`npm run docs`) holds the viewer at
 * `site/viewer/`, the gallery at `site/examples/` and the docs at `site/`: relative links, `../` and
 * `../examples/`, work wherever the site is served from. Under `npm run dev` the page is at `/` and the dev
 * server serves the built site at `/site/` (build/site-preview-plugin.ts, which says to run `npm run docs`
 * while there is none): `/site/` and `/site/examples/`.
 */
export function siteLinks(development: boolean): SiteLinks {
  return development ? { docs: '/site/', examples: '/site/examples/' } : { docs: '../', examples: '../examples/' };
}
