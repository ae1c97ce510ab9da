/// The USDA food catalog on PostgreSQL, with its full-text and trigram indexes.
///
/// The same tables as the SQLite catalog (`AppDatabase+FoodCatalogSchema`), in snake case:
/// - `food.ordinal` numbers foods from the most generic down (`FoodSearchRanker.staticOrderKey`); a query that
///   matches more foods than it may look at takes the first ones in that order, as the SQLite index does.
/// - `food.search_head`, `search_body`, `search_extra` hold the stemmed words of `FoodSearchDocument`, space
///   separated, computed by the importer with the same Swift code as on SQLite. `search_vector` is derived from them
///   with `array_to_tsvector`, so PostgreSQL's parser never re-splits or re-stems a word: the words indexed are
///   exactly the words the ranker and the bm25 computation see. The vector only says which words a food has:
///   how often, and in which column, the search counts in Swift from the three columns, as FTS5's bm25 does.
/// - `food_search_word` is the catalog's vocabulary with a trigram index: a word typed with a typo ("brocoli")
///   is corrected to the nearest indexed word when the query finds nothing as typed.
/// - `food_catalog_info` is written last in the import's transaction: a catalog without it is not there.
public enum PostgresFoodCatalogSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(
            version: 101,
            name: "food-catalog",
            statements: [
                // Trusted since PostgreSQL 13: a database owner may create it without superuser rights.
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                """
                CREATE TABLE food_group (
                    code text PRIMARY KEY,
                    description text NOT NULL
                )
                """,
                """
                CREATE TABLE nutrient_definition (
                    number text PRIMARY KEY,
                    unit text NOT NULL,
                    tag text NOT NULL,
                    description text NOT NULL,
                    decimals integer NOT NULL,
                    sort_order integer NOT NULL
                )
                """,
                """
                CREATE TABLE food (
                    ordinal integer PRIMARY KEY,
                    id text NOT NULL UNIQUE,
                    food_group_code text NOT NULL REFERENCES food_group (code),
                    long_description text NOT NULL,
                    short_description text NOT NULL,
                    common_name text,
                    manufacturer text,
                    scientific_name text,
                    refuse_percent double precision,
                    is_survey_food boolean NOT NULL,
                    kcal double precision,
                    protein double precision,
                    carbohydrate double precision,
                    fat double precision,
                    fiber double precision,
                    sugars double precision,
                    sodium double precision,
                    search_prior double precision NOT NULL,
                    search_head text NOT NULL,
                    search_body text NOT NULL,
                    search_extra text NOT NULL,
                    search_vector tsvector GENERATED ALWAYS AS (
                        array_to_tsvector(array_remove(string_to_array(
                            search_head || ' ' || search_body || ' ' || search_extra, ' '), ''))
                    ) STORED
                )
                """,
                "CREATE INDEX food_search_vector_index ON food USING gin (search_vector)",
                """
                CREATE TABLE food_nutrient (
                    food_id text NOT NULL REFERENCES food (id) ON DELETE CASCADE,
                    nutrient_number text NOT NULL REFERENCES nutrient_definition (number),
                    amount double precision NOT NULL,
                    PRIMARY KEY (food_id, nutrient_number)
                )
                """,
                """
                CREATE TABLE household_measure (
                    food_id text NOT NULL REFERENCES food (id) ON DELETE CASCADE,
                    sequence integer NOT NULL,
                    amount double precision NOT NULL,
                    description text NOT NULL,
                    grams double precision NOT NULL,
                    PRIMARY KEY (food_id, sequence)
                )
                """,
                """
                CREATE TABLE food_search_word (
                    word text PRIMARY KEY,
                    documents integer NOT NULL
                )
                """,
                "CREATE INDEX food_search_word_trigram_index ON food_search_word USING gin (word gin_trgm_ops)",
                """
                CREATE TABLE food_catalog_info (
                    id integer PRIMARY KEY CHECK (id = 1),
                    content_hash text NOT NULL,
                    imported_at timestamptz NOT NULL,
                    food_count integer NOT NULL,
                    search_token_count bigint NOT NULL
                )
                """,
            ]
        )
    ]
}
