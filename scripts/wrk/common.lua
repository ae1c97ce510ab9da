-- Shared by the wrk scripts of scripts/bench-server.sh: bearer tokens from $WDIET_TOKENS (one per line, written
-- by `wdiet-dev seed --tokens-out`), loaded once per wrk thread in init(); a count of non-2xx responses per thread;
-- and a done() that prints P50/P90/P95/P99 (wrk's own output has no P95) and the non-2xx count.
--
-- With $WDIET_RATE (requests a second, over all connections) the load is paced open-loop: each wrk thread keeps
-- its own timeline of send times, a Poisson process at $WDIET_RATE / $WDIET_THREADS (exponential gaps, as
-- independent users send them), and a connection that is free takes the next slot on it and waits until then
-- (`delay()`, never negative). So below saturation the server sees the rate asked for, whatever its latency; the
-- old pacing (each connection waiting an exponential time after each answer) offered connections / (mean wait +
-- latency), always less. The latencies are then those of a server at that load rather than the length of a queue
-- that is never empty (with every connection always busy, the mean latency is connections / throughput).
--
-- Coordinated omission: wrk times a request from when it is sent, not from its slot. When every connection is
-- busy at a slot's time, the request goes out late and the wait before it is not in the percentiles; so at or
-- above saturation the paced figures understate the queue. done() says how many requests went out more than 1 ms
-- after their slot and the latest one (late_pct, max_late_ms): a run whose late share is not ~0 was not below
-- saturation, and its served rate (not the offered one) is the one to state.
local threads = {}
local thread_count = 0

function setup(thread)
    thread:set("thread_index", thread_count)
    thread_count = thread_count + 1
    table.insert(threads, thread)
end

tokens = {}
next_token = 1
non2xx = 0

local rate = tonumber(os.getenv("WDIET_RATE") or "")
if rate then
    local ffi = require("ffi")
    ffi.cdef [[
        typedef struct { long tv_sec; long tv_nsec; } wdiet_timespec;
        int clock_gettime(int clock_id, wdiet_timespec *tp);
    ]]
    local CLOCK_MONOTONIC = 1
    local timespec = ffi.new("wdiet_timespec")
    local function now_ms()
        ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
        return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
    end
    -- wrk's own default is 2 threads; scripts that pace with other thread counts export WDIET_THREADS.
    local mean_gap_ms = 1000 * (tonumber(os.getenv("WDIET_THREADS") or "") or 2) / rate
    local function gap_ms() return -math.log(1 - math.random()) * mean_gap_ms end
    local next_slot_ms = nil
    slots = 0
    sent_late = 0
    max_late_ms = 0
    function delay()
        local now = now_ms()
        if next_slot_ms == nil then
            -- Each wrk thread has a Lua state of its own: seed each differently.
            math.randomseed(os.time() + 1000 * (thread_index or 0))
            next_slot_ms = now + gap_ms()
        end
        local slot = next_slot_ms
        next_slot_ms = slot + gap_ms()
        slots = slots + 1
        local wait = slot - now
        if wait < -1 then
            sent_late = sent_late + 1
            if -wait > max_late_ms then max_late_ms = -wait end
        end
        if wait <= 0 then return 0 end
        return math.floor(wait + 0.5)
    end
end

function load_tokens()
    local path = os.getenv("WDIET_TOKENS") or "tokens.txt"
    local file = assert(io.open(path, "r"), "cannot open tokens file " .. path)
    for line in file:lines() do
        if #line > 0 then table.insert(tokens, line) end
    end
    file:close()
    assert(#tokens > 0, "no tokens in " .. path)
    -- Threads start at different users.
    next_token = ((thread_index or 0) * 7919) % #tokens + 1
end

function take_token()
    local token = tokens[next_token]
    next_token = next_token % #tokens + 1
    return token
end

function response(status, headers, body)
    if status < 200 or status > 299 then
        non2xx = non2xx + 1
        if non2xx <= 3 then io.stderr:write("non-2xx " .. status .. ": " .. tostring(body) .. "\n") end
    end
end

function done(summary, latency, requests)
    local total_non2xx, total_slots, total_late, max_late = 0, 0, 0, 0
    for _, thread in ipairs(threads) do
        total_non2xx = total_non2xx + (thread:get("non2xx") or 0)
        total_slots = total_slots + (thread:get("slots") or 0)
        total_late = total_late + (thread:get("sent_late") or 0)
        max_late = math.max(max_late, thread:get("max_late_ms") or 0)
    end
    local seconds = summary.duration / 1e6
    local paced = ""
    if rate then
        paced = string.format(" offered=%d late_pct=%.1f max_late_ms=%.1f", rate,
            total_slots > 0 and 100 * total_late / total_slots or 0, max_late)
    end
    io.write(string.format(
        "RESULT name=%s requests=%d seconds=%.1f rps=%.0f p50_ms=%.2f p90_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d%s\n",
        bench_name or "?", summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(95) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000, total_non2xx,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, paced))
end
