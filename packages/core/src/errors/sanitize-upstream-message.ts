/*
 * Host names, URLs and IP addresses in an upstream message would tell clients about our network, so
 * they become `[upstream]`; the rest of the message stays as the server wrote it, since it is what
 * tells the client what to change (a context length, a parameter name). Each pattern is narrow so that
 * ordinary words survive: a URL ends before trailing punctuation, a dotted name is a host only with an
 * internal suffix, three or more labels or a port (`self.net` or `config.io` in a Python traceback
 * are not hosts), and a bare `name:port` only when the name looks like a machine (a digit, a hyphen or
 * `localhost`), so `tokens:8192` stays.
 */
// Scheme, then anything up to whitespace or a quote; trailing punctuation is given back below.
const urlPattern = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;
const urlTrailingPunctuation = /[.,;:!?)\]}]+$/;
const ipv4Pattern = /(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?::\d{1,5})?(?![\d.]*\d)/g;
const ipv6Pattern = /\[[0-9a-f:.]*:[0-9a-f:.]*\](?::\d{1,5})?/gi;
const label = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const internalHostPattern = new RegExp(`\\b(?:${label}\\.)+(?:internal|local|localdomain|lan|svc|cluster|corp|intranet|home\\.arpa)(?::\\d{1,5})?\\b`, 'gi');
const publicSuffix = '(?:com|net|org|io|ai|cloud|dev|app)';
const longHostPattern = new RegExp(`\\b(?:${label}\\.){2,}${publicSuffix}(?::\\d{1,5})?\\b`, 'gi');
const hostWithPortPattern = new RegExp(`\\b(?:${label}\\.)+${publicSuffix}:\\d{1,5}\\b`, 'gi');
const machinePortPattern = /\b(?:localhost|[a-z][a-z0-9]*(?:[-\d][a-z0-9]*)+):\d{2,5}\b(?![:\d])/gi;

// An upstream that echoes its Authorization header would hand our upstream key to the client.
const credentialPattern = /\b(Bearer|Basic|Token)\s+[^\s'",}]+/gi;

const redacted = '[upstream]';

function redactUrl(url: string): string {
  // Punctuation that closes the URL's sentence or bracket is prose, not URL: it stays.
  return redacted + (urlTrailingPunctuation.exec(url)?.[0] ?? '');
}

/** An upstream's error message as a client may read it: hosts and credentials out, the rest as the server wrote it. */
export function sanitizeUpstreamMessage(message: string): string {
  return message
    .replace(credentialPattern, '$1 [redacted]')
    .replace(urlPattern, redactUrl)
    .replace(ipv6Pattern, redacted)
    .replace(ipv4Pattern, redacted)
    .replace(internalHostPattern, redacted)
    .replace(hostWithPortPattern, redacted)
    .replace(longHostPattern, redacted)
    .replace(machinePortPattern, redacted)
    .slice(0, 2000);
}
