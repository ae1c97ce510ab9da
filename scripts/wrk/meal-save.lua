-- POST /api/v1/meals: a manual meal, logged now, by the seeded users in turn.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
bench_name = "meal-save"

local bodies = {
    '{"name":"Turkey sandwich","calories":420,"protein":28,"carbs":45,"fat":12,"fiber":5}',
    '{"name":"Greek yogurt","calories":150,"protein":15,"carbs":8,"fat":4}',
    '{"name":"Pasta bolognese","calories":640,"protein":30,"carbs":80,"fat":20,"fiber":6}',
    '{"name":"Apple","calories":95}',
}

function init(args)
    load_tokens()
    next_body = 1
end

function request()
    local body = bodies[next_body]
    next_body = next_body % #bodies + 1
    return wrk.format("POST", "/api/v1/meals", {
        ["Authorization"] = "Bearer " .. take_token(), ["Content-Type"] = "application/json",
    }, body)
end
