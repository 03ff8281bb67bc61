/*
 * An upstream's error message tells the client what to change, so it is passed on; what it says about
 * our network, machines and credentials is not: hosts, URLs and IP addresses become `[upstream]`, paths
 * `[path]`, keys and tokens `[redacted]`. Each pattern is narrow so that ordinary words survive
 * (`tokens:8192`, `self.net` in a traceback, a model id such as `Qwen/Qwen2.5-7B-Instruct`); the rules
 * are in docs/design.md, "Upstream outcomes".
 */

// Scheme, then anything up to whitespace or a quote; trailing punctuation is given back below.
const urlPattern = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;
const trailingPunctuation = /[.,;:!?)\]}]+$/;
const ipv4Pattern =
  /(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?::\d{1,5})?(?![\d.]*\d)/g;
const bracketedIpv6Pattern = /\[[0-9a-f:.]*:[0-9a-f:.]*\](?::\d{1,5})?/gi;
// Two colons at least; whether it is an address (and not a time such as 10:30:00) is the URL parser's call.
const ipv6Pattern = /(?<![\w:.%[])[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*(?:%[\w.]+)?(?![\w:%])/gi;
const label = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const internalHostPattern = new RegExp(
  `\\b(?:${label}\\.)+(?:internal|local|localdomain|lan|svc|cluster|corp|intranet|home\\.arpa)(?::\\d{1,5})?\\b`,
  'gi',
);
const publicSuffix = '(?:com|net|org|io|ai|cloud|dev|app|co|us|uk|de|fr|eu|jp|info|biz)';
const longHostPattern = new RegExp(`\\b(?:${label}\\.){2,}${publicSuffix}(?::\\d{1,5})?\\b`, 'gi');
const hostWithPortPattern = new RegExp(`\\b(?:${label}\\.)+${publicSuffix}:\\d{1,5}\\b`, 'gi');
const machinePortPattern = /\b(?:localhost|[a-z][a-z0-9]*(?:[-\d][a-z0-9]*)+):\d{2,5}\b(?![:\d])/gi;
// Where a message names a host as such: Python's `host='...'`, a failed name lookup.
const namedHostPattern =
  /\b(host(?:name)?\s*[=:]\s*|(?:resolve|resolving|look ?up|lookup)\s+(?:host\s+)?)(['"]?)([a-z0-9][\w.-]*)\2/gi;

// POSIX (or home-relative) paths of two segments or more, and Windows paths.
const posixPathPattern = /(?<![\w.~/:@\\-])~?\/(?:[\w.@%+~-]+\/)+[\w.@%+~-]*/g;
const windowsPathPattern = /(?<![\w])[a-z]:\\[^\s'"<>|*?]*/gi;

// Values of fields and headers that hold secrets (`x-api-key: ...`, `'api_key': '...'`), a scheme before the value kept.
const namedSecretPattern =
  /\b((?:x-)?api[-_]?key|x-auth-token|auth[-_]token|access[-_]token|refresh[-_]token|aws[-_]secret[-_]access[-_]key|client[-_]secret|secret[-_]key|password|passwd)(["']?\s*[:=]\s*["']?)((?:bearer|basic|token)\s+)?[^\s"',;}\])]+/gi;
// An upstream that echoes its Authorization header would hand our upstream key to the client.
const credentialPattern = /\b(Bearer|Basic|Token)(\s+)([^\s'",}]+)/gi;
// Key formats that are secrets wherever they appear: AWS access key ids, OpenAI-style `sk-` keys,
// Hugging Face, GitHub and Google API tokens, JSON Web Tokens, infergate's own generated keys.
const keyFormatPattern =
  /\b(?:(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}|sk-[\w-]{16,}|hf_[A-Za-z0-9]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|AIza[\w-]{35}|eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*|ig-[0-9a-f]{32})\b/g;

const upstream = '[upstream]';
const secret = '[redacted]';

/** A match with the punctuation that closes its sentence or bracket given back: that is prose, not the match. */
function replacedKeepingPunctuation(replacement: string): (match: string) => string {
  return (match) => replacement + (trailingPunctuation.exec(match)?.[0] ?? '');
}

/** A run that reads as a credential rather than a word: a digit, a symbol or a capital inside it. */
function looksLikeCredential(value: string): boolean {
  return /[\d\-_.=+/~]/.test(value) || /.[A-Z]/.test(value);
}

function redactCredential(match: string, scheme: string, space: string, value: string): string {
  const end = trailingPunctuation.exec(value)?.[0] ?? '';
  return looksLikeCredential(value.slice(0, value.length - end.length))
    ? `${scheme}${space}${secret}${end}`
    : match;
}

function redactIpv6(match: string): string {
  const end = trailingPunctuation.exec(match)?.[0] ?? '';
  const address = match.slice(0, match.length - end.length).replace(/%[\w.]+$/, '');
  try {
    new URL(`http://[${address}]/`);
  } catch {
    return match;
  }
  return upstream + end;
}

/** An upstream's error message as a client may read it: hosts, paths and credentials out, the rest as the server wrote it. */
export function sanitizeUpstreamMessage(message: string): string {
  return message
    .replace(
      namedSecretPattern,
      (_match, name: string, separator: string, scheme: string | undefined) =>
        `${name}${separator}${scheme ?? ''}${secret}`,
    )
    .replace(credentialPattern, redactCredential)
    .replace(keyFormatPattern, secret)
    .replace(urlPattern, replacedKeepingPunctuation(upstream))
    .replace(windowsPathPattern, replacedKeepingPunctuation('[path]'))
    .replace(posixPathPattern, replacedKeepingPunctuation('[path]'))
    .replace(bracketedIpv6Pattern, upstream)
    .replace(ipv6Pattern, redactIpv6)
    .replace(ipv4Pattern, upstream)
    .replace(internalHostPattern, upstream)
    .replace(hostWithPortPattern, upstream)
    .replace(longHostPattern, upstream)
    .replace(machinePortPattern, upstream)
    .replace(
      namedHostPattern,
      (_match, context: string, quote: string) => `${context}${quote}${upstream}${quote}`,
    )
    .slice(0, 2000);
}
