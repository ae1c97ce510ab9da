-- GET /api/v1/foods/search with every query new, so that the server's page cache (FoodSearchCache) never answers:
-- what a search costs when nobody typed the same before. Each request is a two-word query as typed ("chicken bre"),
-- a misspelt word (one letter replaced: "chicken" → "chixken"), or a prefix, drawn in order from a space of millions
-- (words × typo variants × second words × prefix lengths). Each wrk thread walks its own residue class from a start
-- set by the clock, so the warm-up run and the measured run do not meet either.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
bench_name = "search-uncached"

local words = {
    "apple", "banana", "chicken", "breast", "milk", "skim", "egg", "white", "bread", "wheat", "rice", "brown",
    "oats", "yogurt", "greek", "cheddar", "cheese", "mozzarella", "salmon", "tuna", "beef", "ground", "potato",
    "sweet", "tomato", "broccoli", "spinach", "carrot", "orange", "juice", "almonds", "peanut", "butter", "pasta",
    "spaghetti", "lentils", "black", "beans", "avocado", "coffee", "tea", "turkey", "pork", "bacon", "olive", "oil",
    "sugar", "honey", "chocolate", "dark", "strawberries", "blueberries", "grapes", "pear", "peach", "cucumber",
    "lettuce", "onion", "garlic", "raw", "cooked", "roasted", "boiled", "fried", "baked", "frozen", "canned",
    "soup", "salad", "pizza", "cookies", "cereal", "cream", "ice", "sausage", "ham", "shrimp", "corn", "peas",
}
local letters = "abcdefghijklmnopqrstuvwxyz"
local variants = 1 + 6 * 26  -- the word itself, or one of its letters 2–7 replaced

-- Variant v of a word: itself (v = 0) or one letter after the first replaced.
local function variant(word, v)
    if v == 0 then return word end
    local position = 2 + math.floor((v - 1) / 26) % (#word - 1)
    local letter = letters:sub((v - 1) % 26 + 1, (v - 1) % 26 + 1)
    return word:sub(1, position - 1) .. letter .. word:sub(position + 1)
end

local space = #words * variants * #words * 4

function init(args)
    load_tokens()
    local threads = tonumber(os.getenv("WDIET_THREADS") or "") or 2
    counter = ((os.time() * 100003) % space) - ((os.time() * 100003) % space) % threads + (thread_index or 0)
    step = threads
end

function request()
    local n = counter % space
    counter = counter + step
    local first = words[n % #words + 1]
    n = math.floor(n / #words)
    local v = n % variants
    n = math.floor(n / variants)
    local second = words[n % #words + 1]
    local length = math.floor(n / #words) % 4  -- 0: the first word alone; 1–3: a second word, 2, 3 or all letters
    local q = variant(first, v)
    if length > 0 then
        q = q .. "%20" .. (length == 3 and second or second:sub(1, length + 1))
    end
    return wrk.format("GET", "/api/v1/foods/search?q=" .. q .. "&limit=10", { ["Authorization"] = "Bearer " .. take_token() })
end
