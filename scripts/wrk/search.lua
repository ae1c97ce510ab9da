-- GET /api/v1/foods/search: whole words, prefixes as they are typed, and two-word queries.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
bench_name = "search"

local queries = {
    "apple", "ap", "app", "appl", "banana", "ban", "chicken", "chick", "chicken breast", "chicken bre",
    "milk", "mi", "milk skim", "egg", "eggs", "egg whi", "bread", "bread whole", "bread whole wheat", "rice",
    "rice brown", "ri", "oat", "oatmeal", "yogurt", "yogurt greek", "yog", "cheddar", "cheese mozz", "che",
    "salmon", "salm", "tuna", "beef ground", "beef", "be", "potato", "pot", "sweet potato", "tomato",
    "tom", "broccoli", "broc", "spinach", "spin", "carrot", "orange juice", "orange", "almonds", "alm",
    "peanut butter", "peanut", "pasta", "spaghetti", "lentils", "black beans", "beans", "avocado", "avo", "coffee",
    "tea", "turkey", "pork", "bacon", "butter", "olive oil", "oil", "sugar", "honey", "chocolate dark",
    "strawberries", "straw", "blueberries", "grapes", "pear", "peach", "cucumber", "lettuce", "onion", "garlic",
}
for i, q in ipairs(queries) do queries[i] = q:gsub(" ", "%%20") end

function init(args)
    load_tokens()
    next_query = ((thread_index or 0) * 13) % #queries + 1
end

function request()
    local q = queries[next_query]
    next_query = next_query % #queries + 1
    return wrk.format("GET", "/api/v1/foods/search?q=" .. q .. "&limit=10", { ["Authorization"] = "Bearer " .. take_token() })
end
