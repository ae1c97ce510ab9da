import Hummingbird

/// The OpenAPI 3.1 description of `/api/v1`, served at `GET /api/v1/openapi.yaml`. Kept in Swift rather than as a
/// bundle resource so the server binary is self-contained; `OpenAPIDocumentTests` checks that its paths and
/// methods are exactly the router's.
enum OpenAPIDocument {
    static func addRoute(to api: RouterGroup<AppRequestContext>) {
        api.get("openapi.yaml") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: yaml))
            )
        }
    }

    static let yaml = #"""
openapi: 3.1.0
info:
  title: w-diet API
  version: "1"
  description: |
    The JSON API of w-diet for native clients: accounts, the profile, the MATADOR plan, the dashboard, food search,
    meals, weights and the coach's tips. Every route except the auth ones that sign a user in needs `Authorization: Bearer <token>`
    (from register, login or guest); every read and write is scoped to that user. Quantities are metric (kg, cm, g,
    kcal, ml); instants are ISO 8601 UTC (`2026-03-01T12:30:00.000Z`; without fractional seconds accepted too);
    days are local days in the profile's time zone, written `YYYY-MM-DD`. Ids are UUIDs, written in lowercase;
    ids sent in paths and bodies may be in either case.

    Errors always have the shape `{"error": {"code", "message", "fields"?}}`: 400 for malformed requests (bad JSON,
    wrong types, bad dates or ids), 401 without a valid session, 404 for what the user does not have, 409 for
    conflicts, 422 for values the forms refuse (with the forms' messages under `fields`), 503 when the food catalog
    is missing. Malformed bodies never produce a 5xx.
servers:
  - url: /api/v1
security:
  - bearer: []
tags:
  - name: auth
  - name: profile
  - name: plan
  - name: dashboard
  - name: foods
  - name: meals
  - name: weights
  - name: tips
  - name: data
  - name: sync
    description: Offline-first sync, see docs/sync.md
paths:
  /openapi.yaml:
    get:
      summary: This document
      security: []
      responses:
        "200":
          description: The OpenAPI document
          content:
            application/yaml:
              schema: { type: string }
  /auth/register:
    post:
      tags: [auth]
      summary: Create an account with email and password and sign in
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/EmailPassword" }
      responses:
        "201": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "409":
          description: The email is taken (`email_taken`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
  /auth/login:
    post:
      tags: [auth]
      summary: Sign in with email and password
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/EmailPassword" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401":
          description: Wrong email or password (`invalid_credentials`); the same answer whether or not the email has an account
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
        "429": { $ref: "#/components/responses/TooManyAttempts" }
  /auth/apple:
    post:
      tags: [auth]
      summary: Sign in with Apple (native clients send the ID token and the raw nonce whose SHA-256 they gave Apple)
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/IDToken" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "201": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/InvalidIDToken" }
        "404": { $ref: "#/components/responses/ProviderNotConfigured" }
        "409": { $ref: "#/components/responses/LinkRequired" }
        "422": { $ref: "#/components/responses/Invalid" }
        "503": { $ref: "#/components/responses/ProviderUnavailable" }
  /auth/google:
    post:
      tags: [auth]
      summary: Sign in with Google (the ID token and the nonce the client put in the authorization request)
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/IDToken" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "201": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/InvalidIDToken" }
        "404": { $ref: "#/components/responses/ProviderNotConfigured" }
        "409": { $ref: "#/components/responses/LinkRequired" }
        "422": { $ref: "#/components/responses/Invalid" }
        "503": { $ref: "#/components/responses/ProviderUnavailable" }
  /auth/link/apple:
    post:
      tags: [auth]
      summary: Connect an Apple identity to an existing account once its password is proven, and sign in
      description: >-
        Without a session, `email` and `password` name the account. With one, the session's account is linked;
        its `password` is still required when the account has one.
      security: [{}, { bearer: [] }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/LinkIdentity" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401":
          description: The ID token (`invalid_id_token`) or the password (`invalid_credentials`) is wrong
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "404": { $ref: "#/components/responses/ProviderNotConfigured" }
        "409":
          description: The identity is connected to another account (`identity_linked`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
        "429": { $ref: "#/components/responses/TooManyAttempts" }
        "503": { $ref: "#/components/responses/ProviderUnavailable" }
  /auth/link/google:
    post:
      tags: [auth]
      summary: Connect a Google identity to an existing account once its password is proven, and sign in
      description: As `/auth/link/apple`.
      security: [{}, { bearer: [] }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/LinkIdentity" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401":
          description: The ID token (`invalid_id_token`) or the password (`invalid_credentials`) is wrong
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "404": { $ref: "#/components/responses/ProviderNotConfigured" }
        "409":
          description: The identity is connected to another account (`identity_linked`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
        "429": { $ref: "#/components/responses/TooManyAttempts" }
        "503": { $ref: "#/components/responses/ProviderUnavailable" }
  /auth/password:
    post:
      tags: [auth]
      summary: Change the password; every session of the user ends (this one too) and a new token is returned
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [currentPassword, newPassword]
              properties:
                currentPassword: { type: string }
                newPassword: { type: string, description: "8 to 128 characters, not a common password" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401":
          description: No valid session (`unauthorized`), or the current password is wrong (`invalid_credentials`, field `currentPassword`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "409":
          description: The account has no password (`no_password`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
        "429": { $ref: "#/components/responses/TooManyAttempts" }
  /auth/logout-all:
    post:
      tags: [auth]
      summary: End every session of the signed-in user, on every device
      responses:
        "204": { description: Signed out everywhere }
        "401": { $ref: "#/components/responses/Unauthorized" }
  /auth/guest:
    post:
      tags: [auth]
      summary: Continue without an account (a guest who can add an email and password later)
      security: []
      responses:
        "201": { $ref: "#/components/responses/SignedIn" }
  /auth/upgrade:
    post:
      tags: [auth]
      summary: Give the signed-in guest an email and password; the user id and every row stay
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/EmailPassword" }
      responses:
        "200": { $ref: "#/components/responses/SignedIn" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "409":
          description: Not a guest (`not_a_guest`) or the email is taken (`email_taken`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
  /auth/logout:
    post:
      tags: [auth]
      summary: End the session of the presented token
      responses:
        "204": { description: Signed out }
        "401": { $ref: "#/components/responses/Unauthorized" }
  /auth/me:
    get:
      tags: [auth]
      summary: The signed-in user
      responses:
        "200":
          description: The user
          content:
            application/json:
              schema: { $ref: "#/components/schemas/AccountUser" }
        "401": { $ref: "#/components/responses/Unauthorized" }
  /profile:
    get:
      tags: [profile]
      summary: The user's profile
      responses:
        "200":
          description: The profile
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Profile" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/ProfileMissing" }
    put:
      tags: [profile]
      summary: Create or replace the profile
      description: |
        Required: dateOfBirth, sex, heightCm, weightKg, goal, activity. Optional members left out keep the stored
        value (or the default for a new profile); `null` clears targetWeightKg, targetDate and genderDescription.
        `genderDescription` (001 §3: a custom entry for Other, at most 20 characters, trimmed, never used in a
        calculation) needs `sex` "other": sent with another sex it is a 422; left out, a stored one is kept while
        `sex` stays "other" and dropped when it changes. A change of the
        targets' inputs (date of birth, sex, height, weight, goal, activity, deficit, plan start) applies at the
        user's next local midnight and the answer carries `pendingChange` ("changes apply tomorrow").
        Send `baseVersion` (the `version` the edit started from) to be told with 409 when another device saved in
        between; send without it to overwrite ("keep mine").
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/ProfileInput" }
      responses:
        "200":
          description: The saved profile
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Profile" }
        "201":
          description: The new profile
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Profile" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "409":
          description: |
            The profile changed since `baseVersion`: `current` is the server's copy, `local` the body as it would
            have been saved, `differences` the members where they disagree ("Keep Local" sends `local` again with
            `current.version` as `baseVersion`; "Use Server" keeps `current`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/ProfileConflict" }
        "422": { $ref: "#/components/responses/Invalid" }
        "429":
          description: |
            More than 10 changes to the profile within an hour (`rate_limited`; the first profile and an identical
            save are not counted). `Retry-After` and `retryAfterSeconds` give the seconds until the next change is
            accepted, rounded up.
          headers:
            Retry-After:
              schema: { type: integer, minimum: 1 }
          content:
            application/json:
              schema: { $ref: "#/components/schemas/RateLimited" }
  /profile/preview:
    get:
      tags: [profile]
      summary: Before and after targets of a proposed change, without saving it
      description: |
        Query parameters are the members of `PUT /profile` that change (e.g. `?weightKg=75&goal=maintain`); the
        others stay as saved. An empty value clears `targetWeightKg` or `targetDate`; `dietaryPreferences` and
        `allergies` repeat. Both columns are the targets of the day the change would take effect (the user's next
        local day), from the latest logged weight when there is one, so `difference` is the change's alone.
        Validation and messages are those of `PUT /profile`; nothing is saved and nothing is counted.
      parameters:
        - { name: dateOfBirth, in: query, schema: { type: string, format: date } }
        - { name: sex, in: query, schema: { $ref: "#/components/schemas/Sex" } }
        - { name: genderDescription, in: query, schema: { type: string }, description: "As in PUT /profile" }
        - { name: heightCm, in: query, schema: { type: number } }
        - { name: weightKg, in: query, schema: { type: number } }
        - { name: targetWeightKg, in: query, schema: { type: number } }
        - { name: targetDate, in: query, schema: { type: string, format: date } }
        - { name: goal, in: query, schema: { $ref: "#/components/schemas/Goal" } }
        - { name: activity, in: query, schema: { $ref: "#/components/schemas/Activity" } }
        - { name: dietaryPreferences, in: query, schema: { type: array, items: { type: string } }, explode: true }
        - { name: allergies, in: query, schema: { type: array, items: { type: string } }, explode: true }
        - { name: mealsPerDay, in: query, schema: { type: integer } }
        - { name: timeZone, in: query, schema: { type: string } }
        - { name: eatingWindowStart, in: query, schema: { type: string } }
        - { name: deficit, in: query, schema: { $ref: "#/components/schemas/Deficit" } }
        - { name: weightUnit, in: query, schema: { $ref: "#/components/schemas/WeightUnit" } }
        - { name: heightUnit, in: query, schema: { $ref: "#/components/schemas/HeightUnit" } }
        - { name: planStartDate, in: query, schema: { type: string, format: date } }
      responses:
        "200":
          description: The targets before and after, their differences, and when the change takes effect
          content:
            application/json:
              schema: { $ref: "#/components/schemas/ProfilePreview" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/ProfileMissing" }
        "422": { $ref: "#/components/responses/Invalid" }
  /plan:
    get:
      tags: [plan]
      summary: The targets of a local day
      description: |
        BMR and TDEE (Mifflin-St Jeor × activity), the MATADOR phase (14 days maintenance, 14 days diet, repeat),
        calories after the floor, macros in grams and water in ml; from the profile in force that day and the
        latest weight logged on or before it.
      parameters:
        - { $ref: "#/components/parameters/Date" }
      responses:
        "200":
          description: The plan
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Plan" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/ProfileMissing" }
  /dashboard:
    get:
      tags: [dashboard]
      summary: Everything the dashboard shows, as numbers
      description: Today as of now; another day as it stood at that day's local noon.
      parameters:
        - { $ref: "#/components/parameters/Date" }
      responses:
        "200":
          description: The dashboard
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Dashboard" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/ProfileMissing" }
  /foods/search:
    get:
      tags: [foods]
      summary: As-you-type search in the USDA SR28 catalog
      parameters:
        - name: q
          in: query
          required: true
          schema: { type: string, minLength: 1, maxLength: 200 }
        - name: limit
          in: query
          schema: { type: integer, minimum: 1, maximum: 50, default: 20 }
      responses:
        "200":
          description: The best matches first
          content:
            application/json:
              schema: { $ref: "#/components/schemas/FoodSearch" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "503": { $ref: "#/components/responses/CatalogMissing" }
  /meals:
    post:
      tags: [meals]
      summary: Log a meal (manual, or a food of the catalog by grams or portion)
      description: |
        A client-generated `id` makes the call idempotent: when the user already has that meal it is returned
        unchanged. A meal outside the eating window and its 2-hour grace is saved all the same, with `warning`.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - { $ref: "#/components/schemas/ManualMealInput" }
                - { $ref: "#/components/schemas/CatalogMealInput" }
      responses:
        "201":
          description: The saved meal
          headers:
            Location:
              description: "`/api/v1/meals/{id}`, the id in lowercase"
              schema: { type: string }
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Meal" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "409":
          description: No profile yet (`profile_missing`), or the id belongs to another row (`conflict`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
        "503": { $ref: "#/components/responses/CatalogMissing" }
    get:
      tags: [meals]
      summary: A local day's meals, newest first, with their totals
      parameters:
        - { $ref: "#/components/parameters/Date" }
      responses:
        "200":
          description: The day's meals
          content:
            application/json:
              schema: { $ref: "#/components/schemas/MealDay" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/ProfileMissing" }
  /meals/{id}:
    parameters:
      - { $ref: "#/components/parameters/Id" }
    patch:
      tags: [meals]
      summary: Change a meal
      description: |
        Members left out stay as they are. A manual meal takes name, calories, protein, carbs, fat, fiber
        (`null` clears a macro) and loggedAt under the manual form's rules; a catalog meal takes name, loggedAt and
        a new amount (grams, or portion and quantity), its values rescaled from the food.
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/MealPatch" }
      responses:
        "200":
          description: The meal as saved
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Meal" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/NotFound" }
        "422": { $ref: "#/components/responses/Invalid" }
    delete:
      tags: [meals]
      summary: Delete a meal (a tombstone kept for sync)
      responses:
        "204": { description: Deleted }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/NotFound" }
  /meals/{id}/restore:
    parameters:
      - { $ref: "#/components/parameters/Id" }
    post:
      tags: [meals]
      summary: Undo a delete
      description: The deleted meal is back under a new version. Restoring a meal that is not deleted returns it as it is.
      responses:
        "200":
          description: The meal as restored
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Meal" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/NotFound" }
  /weights:
    post:
      tags: [weights]
      summary: Log a weight in kg or lb
      description: |
        One current value per local day: a later entry that day replaces the earlier one, the history keeps both.
        A client-generated `id` the user already has returns that entry unchanged.
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/WeightInput" }
      responses:
        "201":
          description: The entry, and its day's current value and rolling average
          headers:
            Location:
              description: "`/api/v1/weights/{id}`, the id in lowercase"
              schema: { type: string }
          content:
            application/json:
              schema: { $ref: "#/components/schemas/WeightSaved" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "409":
          description: No profile yet (`profile_missing`), or the id belongs to another row (`conflict`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
    get:
      tags: [weights]
      summary: Every entry and the daily values with rolling averages and trends, oldest first
      responses:
        "200":
          description: The weight history
          content:
            application/json:
              schema: { $ref: "#/components/schemas/WeightHistory" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/ProfileMissing" }
  /weights/{id}:
    parameters:
      - { $ref: "#/components/parameters/Id" }
    delete:
      tags: [weights]
      summary: Delete a weight entry (a tombstone kept for sync)
      responses:
        "204": { description: Deleted }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/NotFound" }
  /tips:
    get:
      tags: [tips]
      summary: The coach's tips the user has dismissed
      description: |
        A client shows each tip that is not in `dismissed` once, and after "Got it" offers it again only from its ℹ️
        button. The tips are `eating-window`, `first-phase-switch`, `first-weekly-average` and `learn-welcome`.
      responses:
        "200":
          description: The dismissed tips
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Tips" }
        "401": { $ref: "#/components/responses/Unauthorized" }
  /tips/{id}/dismiss:
    parameters:
      - name: id
        in: path
        required: true
        schema: { $ref: "#/components/schemas/TipId" }
    post:
      tags: [tips]
      summary: Dismiss a tip for good (idempotent)
      responses:
        "204": { description: Dismissed, now or before }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/NotFound" }
  /events:
    post:
      tags: [analytics]
      summary: Record analytics events the client saw happen (004 Story 5.2)
      description: >-
        Client events only: onboarding_started, onboarding_step_completed, onboarding_finished,
        why_like_this_opened, session_start, session_end, screen_view, screen_exit, error_logged, label_scanned.
        The server records meal_logged, weight_logged, cycle_phase_switched, streak_milestone_reached and
        account_linked itself (and, for the web app, its onboarding's start, account step and finish). At most 50 events; ids are the client's, so a batch sent again records nothing new.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [events]
              properties:
                events:
                  type: array
                  minItems: 1
                  maxItems: 50
                  items:
                    type: object
                    required: [name]
                    properties:
                      id: { type: string, format: uuid }
                      name: { type: string, example: screen_view }
                      properties:
                        type: object
                        maxProperties: 20
                        additionalProperties: { type: string, maxLength: 200 }
                      occurredAt: { type: string, format: date-time, description: "Default now; within the last 400 days" }
      responses:
        "202":
          description: Recorded
          content:
            application/json:
              schema:
                type: object
                required: [recorded]
                properties:
                  recorded: { type: integer }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "422": { $ref: "#/components/responses/Invalid" }
  /sync/push:
    post:
      tags: [sync]
      summary: Push a batch of offline changes (docs/sync.md)
      description: >-
        Up to 1,000 changes of meals, weights, the profile, analytics events (insert-only) and generic rows, applied
        in order in one transaction (all or nothing). Each change carries the client's id, the base version it was
        edited from (absent for a create) and an idempotency key: a change whose key was pushed before (within 30
        days) is not applied again and answers its first result. Meals, weights and rows: the server's order wins
        and an edit from an older base comes back `lost` with the server's copy; a delete of a missing id is
        `ignored`. A profile change from a stale base refuses the whole push with 409 and the three copies.
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/SyncPushRequest" }
      responses:
        "200":
          description: One result per change, in the request's order
          content:
            application/json:
              schema: { $ref: "#/components/schemas/SyncPushResponse" }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "409":
          description: >-
            `profile_conflict` (body SyncProfileConflictError), `profile_missing` (a meal or weight before any
            profile) or `id_in_use` (an id of another user); nothing applied
          content:
            application/json:
              schema:
                oneOf:
                  - { $ref: "#/components/schemas/SyncProfileConflictError" }
                  - { $ref: "#/components/schemas/Error" }
        "413":
          description: More than 1,000 changes or 8 MB (`batch_too_large`); nothing applied
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422":
          description: A change breaks a rule (`invalid_change`); `fields` names it as `changes.N`; nothing applied
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
  /sync/pull:
    get:
      tags: [sync]
      summary: Every change of the user's data after a cursor, in commit order (docs/sync.md)
      parameters:
        - name: cursor
          in: query
          required: true
          description: 0 for everything, else the nextCursor of the last pull (a server version, never a time)
          schema: { type: integer, minimum: 0 }
        - name: limit
          in: query
          schema: { type: integer, minimum: 1, maximum: 1000, default: 500 }
      responses:
        "200":
          description: Meals, weights, profile, dismissed tips and generic rows, tombstones included
          content:
            application/json:
              schema: { $ref: "#/components/schemas/SyncPullResponse" }
        "400":
          description: The cursor is not a whole number ≥ 0 or is above the user's latest version, or the limit is out of range (`invalid_cursor`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "401": { $ref: "#/components/responses/Unauthorized" }
  /export:
    get:
      tags: [data]
      summary: Download everything the user entered (GDPR Art. 15 and 20)
      description: >-
        The account (email, name, created; linked Apple/Google accounts as provider and email), the profile, live meals
        and weights with their ids, local days and versions, analytics events and dismissed tips. Never a password hash,
        session or token. `json` is one document (`ExportDocument`, which `POST /import` reads back); `csv` is a zip of one
        CSV file per table (account, identities, profile, meals, weights, analytics_events, dismissed_tips), UTF-8, a
        header row, RFC 4180 quoting. Sent as an attachment named `w-diet-export-YYYY-MM-DD.json|zip` (the user's day).
      parameters:
        - name: format
          in: query
          schema: { type: string, enum: [json, csv], default: json }
      responses:
        "200":
          description: The export, as a download
          headers:
            Content-Disposition:
              schema: { type: string, example: 'attachment; filename="w-diet-export-2026-11-24.json"' }
          content:
            application/json:
              schema: { $ref: "#/components/schemas/ExportDocument" }
            application/zip:
              schema: { type: string, format: binary }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
  /import:
    post:
      tags: [data]
      summary: Import a JSON export into the signed-in account, all or nothing
      description: >-
        For a new account (no profile, meals, weights or dismissed tips yet; its own analytics events may exist).
        Values, days and instants are kept; a row keeps its id unless another row already has it (the account the
        export came from, on the same server), then it gets a new one (`newIds`); versions are the server's. The
        account's email and name and linked Apple/Google accounts are not imported. At most 32 MB.
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/ExportDocument" }
      responses:
        "201":
          description: Imported
          content:
            application/json:
              schema:
                type: object
                required: [imported, newIds]
                properties:
                  imported:
                    type: object
                    required: [profile, meals, weights, analyticsEvents, dismissedTips, rows]
                    properties:
                      profile: { type: integer }
                      meals: { type: integer }
                      weights: { type: integer }
                      analyticsEvents: { type: integer }
                      dismissedTips: { type: integer }
                      rows: { type: integer }
                  newIds: { type: integer }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "409":
          description: The account already has data (`account_not_empty`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "413":
          description: Larger than 32 MB (`too_large`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422":
          description: >-
            Not a w-diet export, an unknown `formatVersion`, or members that are missing or refused, named by path in
            `fields` (`meals.12`: "Calories must be between 1-9999")
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
  /account:
    delete:
      tags: [data]
      summary: Delete the account and everything in it, at once (GDPR Art. 17)
      description: >-
        Every row of the user in every table is deleted (not marked deleted) in one transaction, and every session of the
        user ends. An account with a password re-enters it (checked and throttled like a sign-in); a guest or an
        Apple/Google-only account sends `{"confirm": "DELETE"}`.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                password: { type: string, description: "Required when the account has a password" }
                confirm: { type: string, enum: [DELETE], description: "Required when it has none" }
      responses:
        "204": { description: Deleted; the token no longer works }
        "400": { $ref: "#/components/responses/BadRequest" }
        "401":
          description: No valid session (`unauthorized`), or the password is wrong (`invalid_credentials`)
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        "422": { $ref: "#/components/responses/Invalid" }
        "429": { $ref: "#/components/responses/TooManyAttempts" }
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
      description: The token from register, login, guest or upgrade; sessions last 30 days.
  parameters:
    Date:
      name: date
      in: query
      description: A local day, YYYY-MM-DD (default today in the profile's time zone)
      schema: { type: string, format: date }
    Id:
      name: id
      in: path
      required: true
      schema: { type: string, format: uuid }
  responses:
    SignedIn:
      description: A session token and the user
      content:
        application/json:
          schema: { $ref: "#/components/schemas/SignedIn" }
    BadRequest:
      description: Malformed request (`bad_request`); `fields` names the member or parameter
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    Unauthorized:
      description: No valid session (`unauthorized`)
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    NotFound:
      description: The user has no such row (`not_found`), whether it never existed or is someone else's
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    ProfileMissing:
      description: No profile yet (`profile_missing`)
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    Invalid:
      description: Values the forms refuse (`invalid`), with the forms' messages under `fields`
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
          example:
            error:
              code: invalid
              message: Calories must be between 1-9999
              fields: { calories: Calories must be between 1-9999 }
    TooManyAttempts:
      description: >-
        Too many failed sign-ins for this email or from this address (`too_many_attempts`); try again after
        `Retry-After` seconds
      headers:
        Retry-After:
          schema: { type: integer }
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    InvalidIDToken:
      description: The ID token is not a valid one from the provider for this app and nonce (`invalid_id_token`)
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    ProviderNotConfigured:
      description: The server has no client id for this provider (`provider_not_configured`)
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    LinkRequired:
      description: >-
        The token's verified email belongs to an existing account (`link_required`); sign in with its password via
        `/auth/link/{provider}` once to connect it
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    ProviderUnavailable:
      description: The provider's signing keys could not be fetched (`provider_unavailable`)
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
    CatalogMissing:
      description: The food catalog has not been imported (`catalog_missing`); offer manual entry
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Error" }
  schemas:
    Error:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message]
          properties:
            code: { type: string, examples: [invalid, bad_request, unauthorized, not_found, conflict, profile_missing, catalog_missing, rate_limited] }
            message: { type: string }
            fields:
              type: object
              additionalProperties: { type: string }
    EmailPassword:
      type: object
      required: [email, password]
      properties:
        email: { type: string, format: email }
        password: { type: string }
    IDToken:
      type: object
      required: [idToken, nonce]
      properties:
        idToken: { type: string, description: The provider's ID token (a JWT signed with RS256) }
        nonce: { type: string, description: "The raw nonce (Apple's token carries its SHA-256 in hex, Google's the nonce itself)" }
    LinkIdentity:
      type: object
      required: [idToken, nonce]
      properties:
        idToken: { type: string }
        nonce: { type: string }
        email: { type: string, format: email, description: The account's email (without a session) }
        password: { type: string, description: The account's password }
    AccountUser:
      type: object
      required: [id, email, isGuest]
      properties:
        id: { type: string, format: uuid }
        email: { type: [string, "null"] }
        isGuest: { type: boolean }
    SignedIn:
      type: object
      required: [token, user]
      properties:
        token: { type: string }
        user: { $ref: "#/components/schemas/AccountUser" }
    Sex: { type: string, enum: [male, female, other] }
    Goal: { type: string, enum: [lose, maintain, gain] }
    Activity: { type: string, enum: [sedentary, light, moderate, very, extreme] }
    Deficit:
      type: string
      enum: [minus500, studyProtocol]
      description: "Diet phase: TDEE − 500 kcal, or the study's 67 % of TDEE"
    WeightUnit: { type: string, enum: [kg, lb] }
    HeightUnit: { type: string, enum: [cm, ftIn] }
    Placement:
      type: string
      enum: [inside, grace, outside]
      description: Against the 6-hour eating window; grace is within 2 hours of it
    ProfileInput:
      type: object
      required: [dateOfBirth, sex, heightCm, weightKg, goal, activity]
      properties:
        dateOfBirth: { type: string, format: date }
        sex: { $ref: "#/components/schemas/Sex" }
        genderDescription:
          type: [string, "null"]
          description: >-
            Only with sex "other"; at most 20 characters as a person sees them (grapheme clusters: an emoji flag of
            five code points is one, so no `maxLength`, which counts code points), trimmed; "" or null is none.
            Stored and shown, never used in a calculation (Other has its own BMR rule).
          examples: [Non-binary]
        heightCm: { type: number, minimum: 50, maximum: 300 }
        weightKg: { type: number, minimum: 20, maximum: 500 }
        targetWeightKg: { type: [number, "null"], minimum: 20, maximum: 500 }
        targetDate: { type: [string, "null"], format: date }
        goal: { $ref: "#/components/schemas/Goal" }
        activity: { $ref: "#/components/schemas/Activity" }
        dietaryPreferences: { type: array, items: { type: string, maxLength: 30 }, maxItems: 10 }
        allergies: { type: array, items: { type: string, maxLength: 30 }, maxItems: 20 }
        mealsPerDay: { type: integer, minimum: 1, maximum: 10, default: 3 }
        timeZone: { type: string, description: IANA time zone, default: UTC, examples: [Europe/Berlin] }
        eatingWindowStart: { type: string, pattern: "^[0-2][0-9]:(00|30)$", default: "12:00" }
        deficit: { $ref: "#/components/schemas/Deficit" }
        weightUnit: { $ref: "#/components/schemas/WeightUnit" }
        heightUnit: { $ref: "#/components/schemas/HeightUnit" }
        planStartDate: { type: string, format: date, description: "Default: today for a new profile, kept for an existing one" }
        baseVersion: { type: integer, format: int64 }
    Profile:
      type: object
      required: [dateOfBirth, sex, heightCm, weightKg, goal, activity, dietaryPreferences, allergies, mealsPerDay,
                 timeZone, eatingWindowStart, eatingWindowEnd, deficit, weightUnit, heightUnit, planStartDate, version,
                 updatedAt]
      properties:
        dateOfBirth: { type: string, format: date }
        sex: { $ref: "#/components/schemas/Sex" }
        genderDescription: { type: string, description: 'Only with sex "other"; left out when there is none' }
        heightCm: { type: number }
        weightKg: { type: number }
        targetWeightKg: { type: number }
        targetDate: { type: string, format: date }
        goal: { $ref: "#/components/schemas/Goal" }
        activity: { $ref: "#/components/schemas/Activity" }
        dietaryPreferences: { type: array, items: { type: string } }
        allergies: { type: array, items: { type: string } }
        mealsPerDay: { type: integer }
        timeZone: { type: string }
        eatingWindowStart: { type: string, examples: ["12:00"] }
        eatingWindowEnd: { type: string, examples: ["18:00"] }
        deficit: { $ref: "#/components/schemas/Deficit" }
        weightUnit: { $ref: "#/components/schemas/WeightUnit" }
        heightUnit: { $ref: "#/components/schemas/HeightUnit" }
        planStartDate: { type: string, format: date }
        version: { type: integer, format: int64 }
        updatedAt: { type: string, format: date-time }
        pendingChange:
          type: object
          description: A saved change of the targets that waits for the user's next local midnight
          required: [effectiveDate, message]
          properties:
            effectiveDate: { type: string, format: date }
            message: { type: string, examples: ["Your plan will be updated tomorrow at midnight (Mon 2 Mar)"] }
    ProfileConflict:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message, current]
          properties:
            code: { const: conflict }
            message: { type: string }
            current: { $ref: "#/components/schemas/Profile" }
            local: { $ref: "#/components/schemas/Profile", description: "The body as it would have been saved; its version is the stale baseVersion" }
            baseVersion: { type: [integer, "null"], format: int64 }
            differences: { type: array, items: { type: string }, description: "Members where local and current disagree" }
    RateLimited:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message, retryAfterSeconds]
          properties:
            code: { const: rate_limited }
            message: { type: string }
            retryAfterSeconds: { type: integer, minimum: 1 }
    PreviewTargets:
      type: object
      required: [bmr, tdee, calories, proteinGrams, waterMl]
      properties:
        bmr: { type: integer, description: kcal }
        tdee: { type: integer, description: kcal }
        calories: { type: integer, description: "kcal, after the floor" }
        proteinGrams: { type: integer }
        waterMl: { type: integer }
    ProfilePreview:
      type: object
      required: [date, before, after, difference, changesTargets, confirmations]
      properties:
        date: { type: string, format: date, description: "The day both columns are computed for" }
        before: { $ref: "#/components/schemas/PreviewTargets" }
        after: { $ref: "#/components/schemas/PreviewTargets" }
        difference: { $ref: "#/components/schemas/PreviewTargets" }
        changesTargets: { type: boolean, description: "True when a target input changes (it waits for midnight)" }
        effectiveDate: { type: string, format: date, description: "First day of the new targets; absent when nothing waits" }
        effectiveAt: { type: string, format: date-time, description: "The user's next local midnight" }
        message: { type: string, examples: ["Your plan will be updated tomorrow at midnight (Mon 2 Mar)"] }
        confirmations:
          type: array
          description: What 001 §12 asks the user to confirm before saving
          items:
            type: object
            required: [kind]
            properties:
              kind:
                type: string
                enum: [dateOfBirthChange, largeHeightChange, largeWeightChange, goalChange, unrealisticTimeline, extremeHeight, extremeWeight]
              from: { type: string }
              to: { type: string }
              deltaCm: { type: number }
              deltaKg: { type: number }
              heightCm: { type: number }
              weightKg: { type: number }
              requiredKgPerWeek: { type: number }
              recommendedDate: { type: string, format: date }
              recommendedWeeks: { type: integer }
    Plan:
      type: object
      required: [date, bmr, tdee, goal, calories, protein, carbs, fat, water, weightKg, floorApplied, underageMaintenance]
      properties:
        date: { type: string, format: date }
        bmr: { type: integer, description: kcal }
        tdee: { type: integer, description: kcal }
        goal: { $ref: "#/components/schemas/Goal" }
        phase: { type: string, enum: [maintenance, diet], description: Absent when the plan does not cycle }
        dayOfPhase: { type: integer, minimum: 1, maximum: 14 }
        dayOfPlan: { type: integer, minimum: 1 }
        cycle: { type: integer, minimum: 1 }
        nextSwitch: { type: string, format: date }
        phaseLabel: { type: string, examples: ["Day 1 of 14 · Diet phase"] }
        calories: { type: integer }
        protein: { type: integer, description: grams }
        carbs: { type: integer, description: grams }
        fat: { type: integer, description: grams }
        water: { type: integer, description: millilitres }
        weightKg: { type: number, description: The weight the targets come from }
        floorApplied: { type: boolean }
        underageMaintenance: { type: boolean }
        planUpdatesOn: { type: string, format: date }
    Totals:
      type: object
      required: [calories, protein, carbs, fat, fiber, mealCount]
      properties:
        calories: { type: number }
        protein: { type: number }
        carbs: { type: number }
        fat: { type: number }
        fiber: { type: number }
        mealCount: { type: integer }
    Dashboard:
      type: object
      required: [date, streak, targets, totals, ring, macros, weightCard, showsWeightPrompt, eatingWindow, fireCoach]
      properties:
        date: { type: string, format: date }
        streak:
          type: object
          required: [days, activeToday]
          properties:
            days: { type: integer }
            activeToday: { type: boolean }
            milestone: { type: integer, enum: [7, 14, 28] }
        targets:
          type: object
          required: [calories, protein, carbs, fat, water, bmr, tdee, floorApplied, underageMaintenance]
          properties:
            calories: { type: integer }
            protein: { type: integer }
            carbs: { type: integer }
            fat: { type: integer }
            water: { type: integer }
            bmr: { type: integer }
            tdee: { type: integer }
            floorApplied: { type: boolean }
            underageMaintenance: { type: boolean }
        totals: { $ref: "#/components/schemas/Totals" }
        ring:
          type: object
          required: [targetKcal, totalKcal, proteinKcal, carbsKcal, fatKcal, unspecifiedKcal, arcs]
          properties:
            targetKcal: { type: number }
            totalKcal: { type: number }
            proteinKcal: { type: number }
            carbsKcal: { type: number }
            fatKcal: { type: number }
            unspecifiedKcal: { type: number, description: Calories logged without macros }
            arcs:
              type: array
              description: Clockwise from 12 o'clock, as fractions of the circle (the target, or the total once passed)
              items:
                type: object
                required: [segment, start, end]
                properties:
                  segment: { type: string, enum: [protein, carbs, fat, unspecified] }
                  start: { type: number }
                  end: { type: number }
        macros:
          type: array
          items:
            type: object
            required: [macro, grams, goal, fraction]
            properties:
              macro: { type: string, enum: [protein, carbs, fat] }
              grams: { type: number }
              goal: { type: integer }
              fraction: { type: number }
              smiley: { type: string, enum: [happy, neutral, sad], description: Absent before the day's first meal }
        weightCard:
          type: object
          properties:
            todayKg: { type: number }
            averageKg: { type: number }
            trend: { type: string, enum: [down, stable, up] }
            belowAverageKg: { type: number, description: Negative; only when today's weight is below the average }
        showsWeightPrompt: { type: boolean }
        eatingWindow:
          type: object
          required: [start, end]
          properties:
            start: { type: string, examples: ["12:00"] }
            end: { type: string, examples: ["18:00"] }
            placementNow: { $ref: "#/components/schemas/Placement" }
        phaseLabel: { type: string, examples: ["Day 3 of 14 · Maintenance phase"] }
        cycle:
          type: object
          required: [phase, dayOfPhase, dayOfPlan, cycle, nextSwitch]
          properties:
            phase: { type: string, enum: [maintenance, diet] }
            dayOfPhase: { type: integer }
            dayOfPlan: { type: integer }
            cycle: { type: integer }
            nextSwitch: { type: string, format: date }
        fireCoach:
          type: object
          required: [variant, emoji]
          properties:
            variant: { type: string, enum: [standard, education, strong, gentle] }
            emoji: { type: string }
        planUpdatesOn: { type: string, format: date }
    Food:
      type: object
      required: [id, name, foodGroup, kcalPer100g, proteinPer100g, carbsPer100g, fatPer100g, fiberPer100g, portions]
      properties:
        id: { type: string, examples: ["05062"] }
        name: { type: string }
        foodGroup: { type: string }
        kcalPer100g: { type: number }
        proteinPer100g: { type: number }
        carbsPer100g: { type: number }
        fatPer100g: { type: number }
        fiberPer100g: { type: number }
        portions:
          type: array
          description: '"100 g" first, then the household measures'
          items:
            type: object
            required: [label, grams]
            properties:
              label: { type: string, examples: ["1 cup (8 fl oz)"] }
              grams: { type: number }
    FoodSearch:
      type: object
      required: [results]
      properties:
        results: { type: array, items: { $ref: "#/components/schemas/Food" } }
    ManualMealInput:
      type: object
      required: [calories]
      properties:
        id: { type: string, format: uuid }
        name: { type: string, maxLength: 100, default: Quick add }
        calories: { type: number, minimum: 1, maximum: 9999 }
        protein: { type: number, minimum: 0, maximum: 999 }
        carbs: { type: number, minimum: 0, maximum: 999 }
        fat: { type: number, minimum: 0, maximum: 999 }
        fiber: { type: number, minimum: 0, maximum: 999 }
        loggedAt: { type: string, format: date-time }
    CatalogMealInput:
      type: object
      required: [foodId]
      description: Either grams, or a portion label of the food (from search) and a quantity (default 1)
      properties:
        id: { type: string, format: uuid }
        foodId: { type: string }
        grams: { type: number, minimum: 0.1, maximum: 5000 }
        portion: { type: string, examples: ["3 oz"] }
        quantity: { type: number, exclusiveMinimum: 0, default: 1 }
        name: { type: string, maxLength: 100, description: "Default: the food's name" }
        loggedAt: { type: string, format: date-time }
    MealPatch:
      type: object
      properties:
        name: { type: string, maxLength: 100 }
        calories: { type: number, minimum: 1, maximum: 9999 }
        protein: { type: [number, "null"] }
        carbs: { type: [number, "null"] }
        fat: { type: [number, "null"] }
        fiber: { type: [number, "null"] }
        grams: { type: number }
        portion: { type: string }
        quantity: { type: number }
        loggedAt: { type: string, format: date-time }
    Meal:
      type: object
      required: [id, name, source, calories, loggedAt, localDate, version, createdAt, updatedAt, window]
      properties:
        id: { type: string, format: uuid }
        name: { type: string }
        source: { type: string, enum: [manual, database, labelScan] }
        foodId: { type: string }
        grams: { type: number }
        calories: { type: number }
        protein: { type: number }
        carbs: { type: number }
        fat: { type: number }
        fiber: { type: number }
        loggedAt: { type: string, format: date-time }
        localDate: { type: string, format: date }
        version: { type: integer, format: int64 }
        createdAt: { type: string, format: date-time }
        updatedAt: { type: string, format: date-time }
        window: { $ref: "#/components/schemas/Placement" }
        warning: { type: string, examples: ["Eating outside your window (12pm-6pm)"] }
    MealDay:
      type: object
      required: [date, meals, totals]
      properties:
        date: { type: string, format: date }
        meals: { type: array, items: { $ref: "#/components/schemas/Meal" } }
        totals: { $ref: "#/components/schemas/Totals" }
    WeightInput:
      type: object
      description: kg or lb (one of them); stored in kg to 0.1 kg
      properties:
        id: { type: string, format: uuid }
        kg: { type: number, minimum: 20, maximum: 500 }
        lb: { type: number }
        loggedAt: { type: string, format: date-time }
    WeightEntry:
      type: object
      required: [id, kg, lb, loggedAt, localDate, version]
      properties:
        id: { type: string, format: uuid }
        kg: { type: number }
        lb: { type: number }
        loggedAt: { type: string, format: date-time }
        localDate: { type: string, format: date }
        version: { type: integer, format: int64 }
    WeightDay:
      type: object
      required: [date, kg, lb, averageKg]
      properties:
        date: { type: string, format: date }
        kg: { type: number, description: "The day's current value (its latest entry)" }
        lb: { type: number }
        averageKg: { type: number, description: Mean of the last up-to-7 daily values }
        trend: { type: string, enum: [down, stable, up], description: From the 7th daily value on }
    WeightSaved:
      type: object
      required: [entry, unit]
      properties:
        entry: { $ref: "#/components/schemas/WeightEntry" }
        day: { $ref: "#/components/schemas/WeightDay" }
        unit: { $ref: "#/components/schemas/WeightUnit" }
    WeightHistory:
      type: object
      required: [unit, entries, days, pickerDefaultKg]
      properties:
        unit: { $ref: "#/components/schemas/WeightUnit" }
        entries: { type: array, items: { $ref: "#/components/schemas/WeightEntry" } }
        days: { type: array, items: { $ref: "#/components/schemas/WeightDay" } }
        pickerDefaultKg: { type: number }
    TipId:
      type: string
      enum: [eating-window, first-phase-switch, first-weekly-average, learn-welcome]
    Tips:
      type: object
      required: [dismissed]
      properties:
        dismissed:
          type: array
          items: { $ref: "#/components/schemas/TipId" }
    SyncChange:
      type: object
      required: [idempotencyKey, entity, op]
      properties:
        idempotencyKey: { type: string, minLength: 1, maxLength: 128 }
        entity: { type: string, enum: [meal, weight, profile, event, row] }
        op: { type: string, enum: [upsert, delete] }
        id: { type: string, format: uuid, description: "Required but for the profile" }
        collection: { type: string, pattern: "^[a-z][a-z0-9_]{0,39}$", description: "Rows only" }
        baseVersion: { type: integer, minimum: 1, description: "Absent for a create" }
        meal: { $ref: "#/components/schemas/SyncMeal" }
        weight: { $ref: "#/components/schemas/SyncWeight" }
        profile: { $ref: "#/components/schemas/SyncProfile" }
        baseProfile: { $ref: "#/components/schemas/SyncProfile" }
        event:
          type: object
          required: [id, name, properties, occurredAt]
          properties:
            id: { type: string, format: uuid }
            name: { type: string, example: meal_logged }
            properties: { type: object, maxProperties: 20, additionalProperties: { type: string, maxLength: 200 } }
            occurredAt: { type: string, format: date-time }
        data: { type: object, description: "A row's values: any JSON object of at most 64 KB" }
    SyncMeal:
      type: object
      required: [id, name, kcal, source, loggedAt]
      properties:
        id: { type: string, format: uuid }
        name: { type: string, maxLength: 100 }
        foodId: { type: string }
        grams: { type: number }
        kcal: { type: number }
        protein: { type: number }
        carbs: { type: number }
        fat: { type: number }
        fiber: { type: number }
        source: { type: string, enum: [manual, database, labelScan] }
        loggedAt: { type: string, format: date-time }
    SyncWeight:
      type: object
      required: [id, kg, loggedAt]
      properties:
        id: { type: string, format: uuid }
        kg: { type: number }
        loggedAt: { type: string, format: date-time }
    SyncProfile:
      type: object
      description: WDietCore's Profile as Codable writes it
      required: [dateOfBirth, sex, heightCm, weightKg, goal, activity, dietaryPreferences, allergies, mealsPerDay,
        timeZoneIdentifier, eatingWindow, planStartDate, deficit, weightUnit, heightUnit]
      properties:
        dateOfBirth: { type: string, format: date }
        sex: { type: string, enum: [male, female, other] }
        heightCm: { type: number }
        weightKg: { type: number }
        targetWeightKg: { type: number }
        targetDate: { type: string, format: date }
        goal: { type: string, enum: [lose, maintain, gain] }
        activity: { type: string, enum: [sedentary, light, moderate, very, extreme] }
        dietaryPreferences: { type: array, items: { type: string } }
        allergies: { type: array, items: { type: string } }
        mealsPerDay: { type: integer }
        timeZoneIdentifier: { type: string, example: Europe/Berlin }
        eatingWindow: { type: object, required: [startMinute], properties: { startMinute: { type: integer } } }
        planStartDate: { type: string, format: date }
        deficit: { type: string, enum: [minus500, studyProtocol] }
        weightUnit: { type: string, enum: [kg, lb] }
        heightUnit: { type: string, enum: [cm, ftIn] }
    SyncPushRequest:
      type: object
      required: [changes]
      properties:
        changes: { type: array, maxItems: 1000, items: { $ref: "#/components/schemas/SyncChange" } }
    SyncPushResponse:
      type: object
      required: [results]
      properties:
        results:
          type: array
          items:
            type: object
            required: [idempotencyKey, entity, status]
            properties:
              idempotencyKey: { type: string }
              entity: { type: string }
              id: { type: string, format: uuid }
              collection: { type: string }
              status: { type: string, enum: [applied, lost, ignored] }
              version: { type: integer }
              server: { $ref: "#/components/schemas/SyncItem" }
              message: { type: string }
    SyncItem:
      type: object
      required: [entity, version, updatedAt]
      properties:
        entity: { type: string, enum: [meal, weight, profile, row, tip] }
        id: { type: string, format: uuid }
        collection: { type: string }
        tip: { $ref: "#/components/schemas/TipId" }
        version: { type: integer }
        updatedAt: { type: string, format: date-time }
        deletedAt: { type: string, format: date-time, description: "Set on a tombstone" }
        localDate: { type: string, format: date }
        meal: { $ref: "#/components/schemas/SyncMeal" }
        weight: { $ref: "#/components/schemas/SyncWeight" }
        profile: { $ref: "#/components/schemas/SyncProfile" }
        planChange: { type: object }
        data: { type: object }
    SyncPullResponse:
      type: object
      required: [items, nextCursor, hasMore]
      properties:
        items: { type: array, items: { $ref: "#/components/schemas/SyncItem" } }
        nextCursor: { type: integer }
        hasMore: { type: boolean }
    SyncProfileConflictError:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message, conflict]
          properties:
            code: { type: string, enum: [profile_conflict] }
            message: { type: string }
            conflict:
              type: object
              required: [index, idempotencyKey, local]
              properties:
                index: { type: integer }
                idempotencyKey: { type: string }
                baseVersion: { type: integer }
                base: { $ref: "#/components/schemas/SyncProfile" }
                local: { $ref: "#/components/schemas/SyncProfile" }
                server: { $ref: "#/components/schemas/SyncItem" }
    ExportDocument:
      type: object
      required: [format, formatVersion, exportedAt, account, meals, weights, analyticsEvents, dismissedTips]
      description: Members without a value are left out.
      properties:
        format: { type: string, const: w-diet-export }
        formatVersion: { type: integer, const: 1 }
        exportedAt: { type: string, format: date-time }
        account:
          type: object
          required: [id, displayName, createdAt, identities]
          properties:
            id: { type: string, format: uuid }
            email: { type: string, format: email }
            displayName: { type: string }
            createdAt: { type: string, format: date-time }
            identities:
              type: array
              items:
                type: object
                required: [issuer, linkedAt]
                properties:
                  issuer: { type: string, example: "https://appleid.apple.com" }
                  email: { type: string }
                  linkedAt: { type: string, format: date-time }
        profile:
          type: object
          description: >-
            The members of `PUT /profile` (with `eatingWindowStart`), plus `planChange` (`{previous, changedOn}`: a
            change of the targets and the inputs it replaced), `version`, `createdAt` and `updatedAt`
        meals:
          type: array
          items:
            type: object
            required: [id, name, source, calories, loggedAt, localDate, version, createdAt, updatedAt]
            properties:
              id: { type: string, format: uuid }
              name: { type: string }
              source: { type: string, enum: [manual, database, labelScan] }
              foodId: { type: string }
              grams: { type: number }
              calories: { type: number }
              protein: { type: number }
              carbs: { type: number }
              fat: { type: number }
              fiber: { type: number }
              loggedAt: { type: string, format: date-time }
              localDate: { type: string, format: date }
              version: { type: integer }
              createdAt: { type: string, format: date-time }
              updatedAt: { type: string, format: date-time }
        weights:
          type: array
          items:
            type: object
            required: [id, kg, loggedAt, localDate, version, createdAt, updatedAt]
            properties:
              id: { type: string, format: uuid }
              kg: { type: number }
              loggedAt: { type: string, format: date-time }
              localDate: { type: string, format: date }
              version: { type: integer }
              createdAt: { type: string, format: date-time }
              updatedAt: { type: string, format: date-time }
        analyticsEvents:
          type: array
          items:
            type: object
            required: [id, name, properties, occurredAt]
            properties:
              id: { type: string, format: uuid }
              name: { type: string }
              properties: { type: object, additionalProperties: { type: string } }
              occurredAt: { type: string, format: date-time }
        dismissedTips:
          type: array
          items:
            type: object
            required: [tip, dismissedAt, version]
            properties:
              tip: { $ref: "#/components/schemas/TipId" }
              dismissedAt: { type: string, format: date-time }
              version: { type: integer }
        rows:
          type: array
          description: >-
            Generic sync rows (docs/sync.md, entity `row`: the journal's entries). Always in an export; an import of
            a document without it (made before it was added) imports none.
          items:
            type: object
            required: [collection, id, data, version, createdAt, updatedAt]
            properties:
              collection: { type: string, example: journal }
              id: { type: string, format: uuid }
              data: { type: object, description: "The JSON object the row holds (at most 64 KB)" }
              version: { type: integer }
              createdAt: { type: string, format: date-time }
              updatedAt: { type: string, format: date-time }
"""#
}
