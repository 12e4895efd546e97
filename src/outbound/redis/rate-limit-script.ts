/**
 * reserveSendSlot — one atomic step of both of Meta's send limits, as GCRA
 * (generic cell rate algorithm: a token bucket kept as one timestamp, the
 * "theoretical arrival time", TAT). A limit of one send per `interval` ms
 * with a burst of `b` allows a send at time t when t ≥ TAT − (b − 1)·interval,
 * and then moves TAT to max(TAT, t) + interval.
 *
 * The script finds the earliest time the number's throughput allows. If
 * the pair limit allows that time too and it is within the reservation
 * horizon, it reserves it in both (the caller sends then). Otherwise it
 * reserves nothing and says how long to wait before asking again: a send
 * held back by its pair limit must not reserve the number's throughput ahead
 * of time, or one busy recipient would hold up every other one (one TAT
 * cannot leave holes for earlier sends). Time is Redis's clock, shared by
 * every worker process.
 *
 * KEYS[1]   number key: TAT of the phone number id (throughput)
 * KEYS[2]   pair key: TAT of the phone number id + recipient (pair limit)
 * ARGV[1]   throughput interval, ms (1000 / messages per second; may be fractional)
 * ARGV[2]   throughput burst tolerance, ms ((burst − 1) × interval)
 * ARGV[3]   pair interval, ms
 * ARGV[4]   pair burst tolerance, ms
 * ARGV[5]   reservation horizon, ms: farther slots are not reserved
 * Returns   { granted (1 reserved, 0 not), wait in ms (whole, rounded up) }
 */
export const RESERVE_SEND_SLOT_LUA = `
local clock = redis.call("TIME")
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local numberInterval, numberTolerance = tonumber(ARGV[1]), tonumber(ARGV[2])
local pairInterval, pairTolerance = tonumber(ARGV[3]), tonumber(ARGV[4])
local numberTat = math.max(now, tonumber(redis.call("GET", KEYS[1]) or "0") or 0)
local pairTat = math.max(now, tonumber(redis.call("GET", KEYS[2]) or "0") or 0)
local slot = math.max(now, numberTat - numberTolerance)
local pairReady = pairTat - pairTolerance
if pairReady > slot then
  return { 0, math.ceil(pairReady - now) }
end
local wait = slot - now
if wait > tonumber(ARGV[5]) then
  return { 0, math.ceil(wait) }
end
local nextNumber = math.max(numberTat, slot) + numberInterval
local nextPair = math.max(pairTat, slot) + pairInterval
redis.call("SET", KEYS[1], string.format("%.3f", nextNumber), "PX", math.ceil(nextNumber - now) + 1)
redis.call("SET", KEYS[2], string.format("%.3f", nextPair), "PX", math.ceil(nextPair - now) + 1)
return { 1, math.ceil(wait) }
`;
