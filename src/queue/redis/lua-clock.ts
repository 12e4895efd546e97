/**
 * Lua prelude: `now`, Redis server time in ms. Every due time, lease and
 * retry time is on this one clock, so clock skew between hosts cannot strand
 * a turn or an event.
 */
export const SERVER_NOW_MS = `
local clock = redis.call("TIME")
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;
