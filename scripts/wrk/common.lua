-- Shared by the wrk scripts of scripts/bench-server.sh: bearer tokens from $WDIET_TOKENS (one per line, written
-- by `wdiet-dev seed --tokens-out`), loaded once per wrk thread in init(); a count of non-2xx responses per thread;
-- and a done() that prints P50/P90/P95/P99 (wrk's own output has no P95) and the non-2xx count.
--
-- With $WDIET_RATE (requests a second, over all $WDIET_CONNECTIONS connections) each connection waits before each
-- request, a random time with an exponential distribution (as independent users send them), so that the load is
-- that rate instead of as much as the server can take; the latencies are then those of a server at that load rather
-- than the length of a queue that is never empty (with every connection always busy, the mean latency is
-- connections / throughput, whatever the server does). wrk times a request from when it is sent.
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
    local mean_wait_ms = 1000 * assert(tonumber(os.getenv("WDIET_CONNECTIONS") or ""), "WDIET_CONNECTIONS") / rate
    local seeded = false
    function delay()
        if not seeded then
            -- Each wrk thread has a Lua state of its own: seed each differently.
            math.randomseed(os.time() + 1000 * (thread_index or 0))
            seeded = true
        end
        return math.floor(-math.log(1 - math.random()) * mean_wait_ms + 0.5)
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
    local total_non2xx = 0
    for _, thread in ipairs(threads) do total_non2xx = total_non2xx + (thread:get("non2xx") or 0) end
    local seconds = summary.duration / 1e6
    io.write(string.format(
        "RESULT name=%s requests=%d seconds=%.1f rps=%.0f p50_ms=%.2f p90_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d\n",
        bench_name or "?", summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(95) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000, total_non2xx,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
