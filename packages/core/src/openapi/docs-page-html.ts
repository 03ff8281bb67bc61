/** The script path of the reference page, relative to the page (served by `docsScriptHandler`). */
export const docsScriptPath = '/docs/assets/reference.js';

// Scalar's standalone bundle reads this configuration from the element. Off: its telemetry, the web
// fonts it would fetch from its own servers and its agent chat (which searches Scalar's registry
// through Scalar's proxy): the page must not call out. Developer tools off too.
const configuration = {
  agent: { disabled: true },
  url: 'openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  hideDownloadButton: false,
  defaultOpenAllTags: true,
};

/**
 * Everything the page may load is on this gateway: the document and the script. The bundle injects its
 * styles at run time, so inline styles are allowed; nothing else is.
 */
export const docsContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The reference page at GET /docs. Relative URLs, so a gateway behind a path prefix still loads both. */
export function docsPageHtml(): string {
  const attribute = JSON.stringify(configuration).replace(/&/g, '&amp;').replace(/'/g, '&#39;');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>infergate API reference</title>',
    // No /favicon.ico request (a 404 in the console).
    '<link rel="icon" href="data:,">',
    '</head>',
    '<body>',
    `<script id="api-reference" type="application/json" data-configuration='${attribute}'></script>`,
    `<script src="${docsScriptPath.slice(1)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
