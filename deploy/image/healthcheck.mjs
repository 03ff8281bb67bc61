// The image's HEALTHCHECK: GET /healthz on the container's own port (PORT, 8080 by default). Exit 0
// when the gateway answers 200 within two seconds, 1 otherwise.
const port = process.env.PORT || '8080';
try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, {
    signal: AbortSignal.timeout(2_000),
  });
  await response.arrayBuffer();
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
