import { createHash } from 'node:crypto';

/*
 * The Redis store's server-side script: rate-limit-policy.ts applied to leases instead of single
 * requests, so that one atomic call per key gives back what a replica no longer needs and grants what
 * it asks for. KEYS[1] is the key's window (a hash: start, requests, tokens, counting admitted use and
 * what leases hold), KEYS[2] its concurrency slots (a sorted set: member replica:key:n, score the
 * expiry unless renewed). A limit of 0 means none.
 */

export interface RedisScript {
  source: string;
  sha1: string;
}

function script(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * ARGV: what scriptArguments (create-redis-limit-store.ts) lists, in its order; returned tokens are
 * negative for use beyond the reservations. Minimums are all-or-nothing, refused in the policy's order
 * (requests, tokens, concurrency), the rest as much as is left up to the maximums. Returns {refused (0
 * none, 1 requests, 2 tokens, 3 concurrency), window start, requests, tokens and slots granted, window
 * requests and tokens, slots in use}.
 */
export const leaseScript = script(`
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local rpm = tonumber(ARGV[3])
local tpm = tonumber(ARGV[4])
local concurrency = tonumber(ARGV[5])
local stored = redis.call('HMGET', KEYS[1], 'start', 'requests', 'tokens')
local start = tonumber(stored[1])
local requests = tonumber(stored[2]) or 0
local tokens = tonumber(stored[3]) or 0
if start == nil or now >= start + windowMs or now < start - windowMs then
  start = now
  requests = 0
  tokens = 0
end
if tonumber(ARGV[7]) == start then
  requests = math.max(0, requests - tonumber(ARGV[8]))
  tokens = math.max(0, tokens - tonumber(ARGV[9]))
end
tokens = tokens + tonumber(ARGV[10])
local given = tonumber(ARGV[19])
if given > 0 then
  redis.call('ZREM', KEYS[2], unpack(ARGV, 20, 19 + given))
end
local slots = 0
if concurrency > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  slots = redis.call('ZCARD', KEYS[2])
end
local minRequests = tonumber(ARGV[11])
local minTokens = tonumber(ARGV[13])
local minSlots = tonumber(ARGV[15])
local refused = 0
if rpm > 0 and minRequests > 0 and requests + minRequests > rpm then
  refused = 1
elseif tpm > 0 and minTokens > 0 and tokens > 0 and tokens + minTokens > tpm then
  refused = 2
elseif concurrency > 0 and minSlots > 0 and slots + minSlots > concurrency then
  refused = 3
end
local grantedRequests = 0
local grantedTokens = 0
local grantedSlots = 0
if refused == 0 then
  if rpm > 0 then grantedRequests = math.max(minRequests, math.min(tonumber(ARGV[12]), rpm - requests)) end
  if tpm > 0 then grantedTokens = math.max(minTokens, math.min(tonumber(ARGV[14]), tpm - tokens)) end
  if concurrency > 0 then grantedSlots = math.max(minSlots, math.min(tonumber(ARGV[16]), concurrency - slots)) end
end
requests = requests + grantedRequests
tokens = tokens + grantedTokens
redis.call('HSET', KEYS[1], 'start', start, 'requests', requests, 'tokens', tokens)
redis.call('PEXPIRE', KEYS[1], 2 * windowMs)
if grantedSlots > 0 then
  local ttl = tonumber(ARGV[6])
  local first = tonumber(ARGV[18])
  for index = 0, grantedSlots - 1 do
    redis.call('ZADD', KEYS[2], now + ttl, ARGV[17] .. (first + index))
  end
  redis.call('PEXPIRE', KEYS[2], ttl)
  slots = slots + grantedSlots
end
return {refused, start, grantedRequests, grantedTokens, grantedSlots, requests, tokens, slots}
`);

/**
 * The budget script: core's budget-policy.ts applied to a replica's lease of a key's budget for one
 * period. KEYS[1] is the period's spend (a string holding a number, leases included). ARGV: budget
 * amount, returned (unused lease given back; negative: cost beyond the reservations, charged), carried
 * (extra cost of requests reserved in an ended period), min (what the first waiting request needs
 * beyond the lease, all-or-nothing; -1 when nobody waits), max (what the lease asks for), expiry in ms.
 * Returns {refused (0 or 1), granted, spend} with the amounts as strings (Lua numbers would be
 * truncated to integers on their way back).
 */
export const budgetScript = script(`
local amount = tonumber(ARGV[1])
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
spent = math.max(0, spent - tonumber(ARGV[2])) + tonumber(ARGV[3])
local min = tonumber(ARGV[4])
local max = tonumber(ARGV[5])
local refused = 0
local granted = 0
if min >= 0 and (spent >= amount or (spent > 0 and spent + min > amount)) then
  refused = 1
else
  granted = math.max(math.max(min, 0), math.min(max, amount - spent))
end
spent = spent + granted
redis.call('SET', KEYS[1], string.format('%.17g', spent), 'PX', tonumber(ARGV[6]))
return {refused, string.format('%.17g', granted), string.format('%.17g', spent)}
`);
