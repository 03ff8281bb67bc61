import { createHash } from 'node:crypto';

/*
 * The Redis store's two server-side scripts: core's rate-limit-policy.ts (decideAdmission and
 * settleWindow) transcribed to Lua, so that a decision is one atomic round trip whatever the number of
 * replicas. KEYS[1] is the key's window (a hash: start, requests, tokens), KEYS[2] its concurrency
 * slots (a sorted set: member = replica:request, score = when the slot expires unless renewed).
 * A limit of 0 means none.
 */

export interface RedisScript {
  source: string;
  sha1: string;
}

function script(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/** ARGV: now, window ms, requests/min, tokens/min, concurrency, estimated tokens, slot member, slot ttl ms. Returns {rejected (0 none, 1 requests, 2 tokens, 3 concurrency), start, requests, tokens}. */
export const acquireScript = script(`
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local rpm = tonumber(ARGV[3])
local tpm = tonumber(ARGV[4])
local concurrency = tonumber(ARGV[5])
local estimate = tonumber(ARGV[6])
local stored = redis.call('HMGET', KEYS[1], 'start', 'requests', 'tokens')
local start = tonumber(stored[1])
local requests = tonumber(stored[2]) or 0
local tokens = tonumber(stored[3]) or 0
if start == nil or now >= start + windowMs or now < start - windowMs then
  start = now
  requests = 0
  tokens = 0
end
local slots = 0
if concurrency > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  slots = redis.call('ZCARD', KEYS[2])
end
local rejected = 0
if rpm > 0 and requests + 1 > rpm then
  rejected = 1
elseif tpm > 0 and tokens > 0 and tokens + estimate > tpm then
  rejected = 2
elseif concurrency > 0 and slots >= concurrency then
  rejected = 3
end
if rejected == 0 then
  requests = requests + 1
  tokens = tokens + estimate
  redis.call('HSET', KEYS[1], 'start', start, 'requests', requests, 'tokens', tokens)
  redis.call('PEXPIRE', KEYS[1], 2 * windowMs)
  if concurrency > 0 then
    local ttl = tonumber(ARGV[8])
    redis.call('ZADD', KEYS[2], now + ttl, ARGV[7])
    redis.call('PEXPIRE', KEYS[2], ttl)
  end
end
return {rejected, start, requests, tokens}
`);

/** ARGV: the reservation's window start, token delta (used - estimated), slot member ('' when none), now, window ms. */
export const settleScript = script(`
if ARGV[3] ~= '' then
  redis.call('ZREM', KEYS[2], ARGV[3])
end
local delta = tonumber(ARGV[2])
if delta == 0 then
  return 0
end
local now = tonumber(ARGV[4])
local windowMs = tonumber(ARGV[5])
local stored = redis.call('HMGET', KEYS[1], 'start', 'tokens')
local start = tonumber(stored[1])
local current = start ~= nil and now < start + windowMs and now >= start - windowMs
if current and start == tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'tokens', math.max(0, (tonumber(stored[2]) or 0) + delta))
  return 1
end
if delta < 0 then
  return 0
end
if current then
  redis.call('HINCRBY', KEYS[1], 'tokens', delta)
else
  redis.call('HSET', KEYS[1], 'start', now, 'requests', 0, 'tokens', delta)
end
redis.call('PEXPIRE', KEYS[1], 2 * windowMs)
return 1
`);
