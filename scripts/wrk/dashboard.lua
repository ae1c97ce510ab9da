-- GET /api/v1/dashboard as the seeded users, one after another.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
bench_name = "dashboard"

function init(args) load_tokens() end

function request()
    return wrk.format("GET", "/api/v1/dashboard", { ["Authorization"] = "Bearer " .. take_token() })
end
